// parse_reply (wire.hpp): a JSON reader written for the envelope alone. It reads the body straight
// into an Envelope, keeping every number as the text the source sent, so that "1708.10" never passes
// through a double (D12), and builds no DOM. A general parser converts each number it meets (a
// SAX parser calls strtod before handing over the text); a whole-market day is three answers of
// about 5,500 rows of up to 11 cells, read while the day before is written (issue 32).
// It accepts exactly RFC 8259 JSON, UTF-8 checked, numbers of any range (the grammar sets none;
// a number no bar can hold is D16's to refuse, in the table readers' row checks); the fuzz target
// compares it with nlohmann's parser, past whose range limit it reads such a number as 0.
#include "core/fetch/tushare/wire.hpp"

#include <charconv>
#include <cstdint>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

Error bad_reply(const std::string& what) {
  return make_error(ErrorCode::invalid_input, "the reply is not Tushare's envelope: " + what);
}

std::optional<std::int64_t> to_integer(std::string_view text) {
  std::int64_t out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Where a value sits, which decides what is kept of it.
enum class Context { envelope, data, fields, items, item, skip };

// Nesting deeper than this is refused rather than followed (the reader recurses).
constexpr int k_max_depth = 64;

class ReplyReader {
public:
  explicit ReplyReader(std::string_view body) : m_text(body) {}

  Result<Envelope> read() {
    skip_space();
    m_is_object = m_at < m_text.size() && m_text[m_at] == '{';
    const bool parsed = value(Context::envelope, {}, 0) && (skip_space(), m_at == m_text.size());
    if (!m_problem.empty()) {
      return bad_reply(m_problem);
    }
    if (!parsed) {
      return bad_reply("not JSON (at byte " + std::to_string(m_at) + " of "
                       + std::to_string(m_text.size()) + ")");
    }
    if (!m_is_object) {
      return bad_reply("not a JSON object");
    }
    if (!m_code) {
      return bad_reply("no whole-number `code`");
    }
    m_reply.code = *m_code;
    if (m_reply.code == 0 && !(m_has_fields && m_has_items)) {
      return bad_reply("`data` has no `fields` and `items` arrays");
    }
    return std::move(m_reply);
  }

private:
  // Each reader below returns false at a syntax error (m_at is where) or a problem (m_problem).

  void skip_space() {
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      ++m_at;
    }
  }

  bool fail(std::string problem) {
    m_problem = std::move(problem);
    return false;
  }

  std::string row_name() const { return "row " + std::to_string(m_reply.data.items.size()); }

  // Read the value at m_at, which sits in `context` under `key` (an object member's name).
  bool value(Context context, std::string_view key, int depth) {
    if (m_at >= m_text.size()) {
      return false;
    }
    switch (m_text[m_at]) {
    case '{':
      return object(context, key, depth);
    case '[':
      return array(context, key, depth);
    case '"': {
      std::string text;
      return string(text) && scalar(context, key, std::move(text));
    }
    case 't':
      return literal("true") && boolean(context, key, true);
    case 'f':
      return literal("false") && boolean(context, key, false);
    case 'n':
      return literal("null") && scalar(context, key, std::nullopt);
    default: {
      const auto begin = m_at;
      return number() && scalar(context, key, std::string(m_text.substr(begin, m_at - begin)));
    }
    }
  }

  bool object(Context context, std::string_view key, int depth) {
    if (context == Context::item) {
      return fail(row_name() + " has a nested cell");
    }
    if (depth >= k_max_depth) {
      return fail("nested deeper than " + std::to_string(k_max_depth) + " levels");
    }
    const Context inner = depth == 0                                          ? Context::envelope
                          : context == Context::envelope && key == "data" ? Context::data
                                                                            : Context::skip;
    ++m_at; // {
    skip_space();
    if (m_at < m_text.size() && m_text[m_at] == '}') {
      ++m_at;
      return true;
    }
    std::string name;
    for (;;) {
      skip_space();
      if (m_at >= m_text.size() || m_text[m_at] != '"' || !string(name)) {
        return false;
      }
      skip_space();
      if (m_at >= m_text.size() || m_text[m_at] != ':') {
        return false;
      }
      ++m_at;
      skip_space();
      if (!value(inner, name, depth + 1)) {
        return false;
      }
      skip_space();
      if (m_at < m_text.size() && m_text[m_at] == ',') {
        ++m_at;
        continue;
      }
      if (m_at < m_text.size() && m_text[m_at] == '}') {
        ++m_at;
        return true;
      }
      return false;
    }
  }

  bool array(Context context, std::string_view key, int depth) {
    if (depth >= k_max_depth) {
      return fail("nested deeper than " + std::to_string(k_max_depth) + " levels");
    }
    Context inner = Context::skip;
    if (context == Context::data && key == "fields") {
      m_has_fields = true;
      inner = Context::fields;
    } else if (context == Context::data && key == "items") {
      m_has_items = true;
      inner = Context::items;
    } else if (context == Context::items) {
      m_reply.data.items.emplace_back().reserve(m_reply.data.fields.size());
      inner = Context::item;
    } else if (context == Context::item) {
      return fail(row_name() + " has a nested cell");
    }
    ++m_at; // [
    skip_space();
    if (m_at < m_text.size() && m_text[m_at] == ']') {
      ++m_at;
      return end_array(inner);
    }
    for (;;) {
      skip_space();
      if (!value(inner, {}, depth + 1)) {
        return false;
      }
      skip_space();
      if (m_at < m_text.size() && m_text[m_at] == ',') {
        ++m_at;
        continue;
      }
      if (m_at < m_text.size() && m_text[m_at] == ']') {
        ++m_at;
        return end_array(inner);
      }
      return false;
    }
  }

  bool end_array(Context inner) {
    if (inner == Context::item && m_reply.data.items.back().size() != m_reply.data.fields.size()) {
      return fail(row_name() + " does not have " + std::to_string(m_reply.data.fields.size())
                  + " cells");
    }
    return true;
  }

  bool literal(std::string_view word) {
    if (m_text.substr(m_at, word.size()) != word) {
      return false;
    }
    m_at += word.size();
    return true;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool number() {
    const auto digits = [this] {
      const auto begin = m_at;
      while (m_at < m_text.size() && is_digit(m_text[m_at])) {
        ++m_at;
      }
      return m_at > begin;
    };
    const auto at = [this](char c) { return m_at < m_text.size() && m_text[m_at] == c; };
    if (at('-')) {
      ++m_at;
    }
    if (at('0')) {
      ++m_at;
    } else if (!digits()) {
      return false;
    }
    if (at('.')) {
      ++m_at;
      if (!digits()) {
        return false;
      }
    }
    if (at('e') || at('E')) {
      ++m_at;
      if (at('+') || at('-')) {
        ++m_at;
      }
      if (!digits()) {
        return false;
      }
    }
    return true;
  }

  // Read four hex digits at m_at into `unit`.
  bool hex4(std::uint32_t& unit) {
    if (m_text.size() - m_at < 4) {
      return false;
    }
    unit = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = m_text[m_at++];
      const int digit = is_digit(c) ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) {
        return false;
      }
      unit = unit * 16 + static_cast<std::uint32_t>(digit);
    }
    return true;
  }

  static void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  // Read the escape after a backslash at m_at into `out`.
  bool escape(std::string& out) {
    if (m_at >= m_text.size()) {
      return false;
    }
    const char c = m_text[m_at++];
    switch (c) {
    case '"': out += '"'; return true;
    case '\\': out += '\\'; return true;
    case '/': out += '/'; return true;
    case 'b': out += '\b'; return true;
    case 'f': out += '\f'; return true;
    case 'n': out += '\n'; return true;
    case 'r': out += '\r'; return true;
    case 't': out += '\t'; return true;
    case 'u': break;
    default: return false;
    }
    std::uint32_t unit = 0;
    if (!hex4(unit) || (unit >= 0xDC00 && unit <= 0xDFFF)) {
      return false; // a low surrogate alone
    }
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      std::uint32_t low = 0;
      if (!literal("\\u") || !hex4(low) || low < 0xDC00 || low > 0xDFFF) {
        return false;
      }
      unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, unit);
    return true;
  }

  // Copy the UTF-8 sequence at m_at (whose first byte is not ASCII) into `out`, if well formed
  // (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
  bool multibyte(std::string& out) {
    const auto byte = [this](std::size_t i) {
      return m_at + i < m_text.size() ? static_cast<unsigned char>(m_text[m_at + i]) : 0u;
    };
    const unsigned lead = byte(0);
    unsigned low = 0x80, high = 0xBF; // the range of the second byte
    std::size_t length = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      low = lead == 0xE0 ? 0xA0 : 0x80;
      high = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      low = lead == 0xF0 ? 0x90 : 0x80;
      high = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
      return false;
    }
    if (byte(1) < low || byte(1) > high) {
      return false;
    }
    for (std::size_t i = 2; i < length; ++i) {
      if (byte(i) < 0x80 || byte(i) > 0xBF) {
        return false;
      }
    }
    out.append(m_text.substr(m_at, length));
    m_at += length;
    return true;
  }

  // Read the string at m_at (its opening quote) into `out`.
  bool string(std::string& out) {
    out.clear();
    ++m_at; // "
    for (;;) {
      // The plain run up to the next quote, backslash, control or non-ASCII byte, at once.
      const auto begin = m_at;
      while (m_at < m_text.size()) {
        const auto c = static_cast<unsigned char>(m_text[m_at]);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) {
          break;
        }
        ++m_at;
      }
      out.append(m_text.substr(begin, m_at - begin));
      if (m_at >= m_text.size()) {
        return false;
      }
      const auto c = static_cast<unsigned char>(m_text[m_at]);
      if (c == '"') {
        ++m_at;
        return true;
      }
      if (c < 0x20) {
        return false; // a control character must be escaped
      }
      if (c == '\\') {
        ++m_at;
        if (!escape(out)) {
          return false;
        }
      } else if (!multibyte(out)) {
        return false;
      }
    }
  }

  bool boolean(Context context, std::string_view key, bool value) {
    if (context == Context::data && key == "has_more") {
      m_reply.data.has_more = value;
      return true;
    }
    return scalar(context, key, std::string(value ? "1" : "0"));
  }

  bool scalar(Context context, std::string_view key, std::optional<std::string> text) {
    switch (context) {
    case Context::item:
      m_reply.data.items.back().push_back(std::move(text));
      return true;
    case Context::fields:
      if (!text) {
        return fail("a name in `fields` is not a string");
      }
      m_reply.data.fields.push_back(std::move(*text));
      return true;
    case Context::envelope:
      if (key == "code" && text) {
        m_code = to_integer(*text);
      } else if (key == "msg" && text) {
        m_reply.msg = std::move(*text);
      } else if (key == "request_id" && text) {
        m_reply.request_id = std::move(*text);
      }
      return true;
    default:
      return true;
    }
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  Envelope m_reply;
  std::optional<std::int64_t> m_code;
  bool m_has_fields = false;
  bool m_has_items = false;
  bool m_is_object = false;
  std::string m_problem;
};

} // namespace

Result<Envelope> parse_reply(std::string_view body) {
  return ReplyReader(body).read();
}

} // namespace ashare::fetch::tushare
