#include "core/fetch/tushare/wire.hpp"

#include <charconv>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

Error bad_reply(const std::string& what) {
  return make_error(ErrorCode::invalid_input, "the reply is not Tushare's envelope: " + what);
}

std::optional<std::int64_t> to_integer(const std::string& text) {
  std::int64_t out = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return out;
}

// A SAX handler that reads the envelope straight into a Reply, keeping every number as the text
// the source sent, so that "1708.10" never passes through a double (D12), and building no DOM:
// a whole-market day is about 5,500 rows of 11 cells (issue 32's benchmark).
class EnvelopeReader {
public:
  using json = nlohmann::json;

  bool null() { return scalar(std::nullopt); }
  bool boolean(bool value) {
    if (top() == Context::data && m_key == "has_more") {
      m_reply.data.has_more = value;
      return true;
    }
    return scalar(std::string(value ? "1" : "0"));
  }
  bool number_integer(json::number_integer_t value) { return scalar(std::to_string(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return scalar(std::to_string(value)); }
  bool number_float(json::number_float_t, const json::string_t& text) { return scalar(text); }
  bool string(json::string_t& value) { return scalar(std::move(value)); }
  bool binary(json::binary_t&) { return false; }
  bool key(json::string_t& name) {
    m_key = std::move(name);
    return true;
  }
  bool start_object(std::size_t) {
    if (m_stack.empty()) {
      m_is_object = true;
      return open(Context::envelope);
    }
    if (top() == Context::item) {
      return fail("row " + std::to_string(m_reply.data.items.size()) + " has a nested cell");
    }
    return open(top() == Context::envelope && m_key == "data" ? Context::data : Context::skip);
  }
  bool start_array(std::size_t) {
    switch (top()) {
    case Context::data:
      if (m_key == "fields") {
        m_has_fields = true;
        return open(Context::fields);
      }
      if (m_key == "items") {
        m_has_items = true;
        return open(Context::items);
      }
      return open(Context::skip);
    case Context::items:
      m_reply.data.items.emplace_back().reserve(m_reply.data.fields.size());
      return open(Context::item);
    case Context::item:
      return fail("row " + std::to_string(m_reply.data.items.size()) + " has a nested cell");
    default:
      return open(Context::skip);
    }
  }
  bool end_object() { return close(); }
  bool end_array() {
    if (top() == Context::item && m_reply.data.items.back().size() != m_reply.data.fields.size()) {
      return fail("row " + std::to_string(m_reply.data.items.size()) + " does not have "
                  + std::to_string(m_reply.data.fields.size()) + " cells");
    }
    return close();
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
    m_error_at = position;
    return false;
  }

  // Return the reply of a body of `body_size` bytes that the parser read whole (`parsed`), or
  // what is wrong with it.
  Result<Reply> result(bool parsed, std::size_t body_size) {
    if (!m_problem.empty()) {
      return bad_reply(m_problem);
    }
    if (!parsed) {
      return bad_reply("not JSON (at byte " + std::to_string(m_error_at) + " of "
                       + std::to_string(body_size) + ")");
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
  enum class Context { envelope, data, fields, items, item, skip };

  Context top() const { return m_stack.empty() ? Context::skip : m_stack.back(); }
  bool open(Context context) {
    m_stack.push_back(context);
    return true;
  }
  bool close() {
    m_stack.pop_back();
    return true;
  }
  bool fail(std::string problem) {
    m_problem = std::move(problem);
    return false;
  }
  bool scalar(std::optional<std::string> text) {
    switch (top()) {
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
      if (m_key == "code" && text) {
        m_code = to_integer(*text);
      } else if (m_key == "msg" && text) {
        m_reply.msg = std::move(*text);
      } else if (m_key == "request_id" && text) {
        m_reply.request_id = std::move(*text);
      }
      return true;
    default:
      return true;
    }
  }

  Reply m_reply;
  std::vector<Context> m_stack;
  std::string m_key;
  std::optional<std::int64_t> m_code;
  bool m_has_fields = false;
  bool m_has_items = false;
  bool m_is_object = false;
  std::string m_problem;
  std::size_t m_error_at = 0;
};

// Return the whole number written before `end` in `text` (digits only), or nullopt.
std::optional<int> number_before(std::string_view text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9') {
    --begin;
  }
  int value = 0;
  const auto [ptr, error] = std::from_chars(text.data() + begin, text.data() + end, value);
  if (begin == end || error != std::errc() || ptr != text.data() + end) {
    return std::nullopt;
  }
  return value;
}

// D18: the per-minute answer in both recorded wordings: "您每分钟最多访问该接口500次" and
// "您访问接口(daily)频率超限(500次/分钟)". Return N, or nullopt when `msg` is neither.
std::optional<std::optional<int>> per_minute_limit(std::string_view msg) {
  const std::string_view first = "每分钟最多访问该接口";
  if (const auto at = msg.find(first); at != std::string_view::npos) {
    auto rest = msg.substr(at + first.size());
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
      ++digits;
    }
    return number_before(rest, digits);
  }
  const std::string_view second = "次/分钟";
  if (const auto at = msg.find(second); at != std::string_view::npos) {
    return number_before(msg, at);
  }
  return std::nullopt;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

} // namespace

std::optional<std::size_t> Table::column(std::string_view name) const {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == name) {
      return i;
    }
  }
  return std::nullopt;
}

std::string request_body(std::string_view api_name,
                         std::string_view token,
                         const nlohmann::json& params,
                         std::string_view fields) {
  nlohmann::json body;
  body["api_name"] = api_name;
  body["token"] = token;
  body["params"] = params.is_null() ? nlohmann::json::object() : params;
  body["fields"] = fields;
  return body.dump();
}

Result<Reply> parse_reply(std::string_view body) {
  EnvelopeReader reader;
  const bool parsed = nlohmann::json::sax_parse(body, &reader);
  return reader.result(parsed, body.size());
}

ClassifiedRefusal classify_refusal(const Reply& reply) {
  const std::string_view msg = reply.msg;
  if (auto limit = per_minute_limit(msg)) {
    return {Refusal::per_minute, *limit};
  }
  if (contains(msg, "每天最多访问该接口") || contains(msg, "次/天")) {
    return {Refusal::daily_quota, std::nullopt};
  }
  if (reply.code == -2002 || contains(msg, "没有权限访问")) {
    return {Refusal::permission, std::nullopt};
  }
  if (contains(msg, "token")) {
    return {Refusal::token, std::nullopt};
  }
  if (contains(msg, "系统内部错误") || contains(msg, "服务器错误") || contains(msg, "系统未知错误")) {
    return {Refusal::internal, std::nullopt};
  }
  return {Refusal::other, std::nullopt};
}

} // namespace ashare::fetch::tushare
