#include "core/api/json_writer.hpp"

#include "core/domain/number.hpp"

#include <algorithm>
#include <cassert>

namespace ashare::api {
namespace {

// Return the length of the valid UTF-8 sequence starting at text[i], or 0 when it is invalid.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned min_second = 0x80, max_second = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    min_second = lead == 0xe0 ? 0xa0 : 0x80; // no overlong forms
    max_second = lead == 0xed ? 0x9f : 0xbf; // no surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    min_second = lead == 0xf0 ? 0x90 : 0x80;
    max_second = lead == 0xf4 ? 0x8f : 0xbf;
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < min_second || byte(i + 1) > max_second) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) {
      return 0;
    }
  }
  return length;
}

} // namespace

void append_json_string(std::string& out, std::string_view text) {
  constexpr std::string_view hex = "0123456789abcdef";
  out.push_back('"');
  // Fast path: most strings (dates, symbols, codes) need no escaping at all.
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
  });
  if (plain) {
    out.append(text);
    out.push_back('"');
    return;
  }
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        out += "\xef\xbf\xbd"; // U+FFFD REPLACEMENT CHARACTER
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\u00";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0xf]);
    } else {
      out.push_back(static_cast<char>(c));
    }
    ++i;
  }
  out.push_back('"');
}

void JsonWriter::before_value() {
  if (m_need_comma) {
    m_body.text().push_back(',');
  }
  m_need_comma = true;
}

void JsonWriter::begin_object() {
  before_value();
  m_body.text().push_back('{');
  m_need_comma = false;
}

void JsonWriter::end_object() {
  m_body.text().push_back('}');
  m_need_comma = true;
}

void JsonWriter::begin_array() {
  before_value();
  m_body.text().push_back('[');
  m_need_comma = false;
}

void JsonWriter::end_array() {
  m_body.text().push_back(']');
  m_need_comma = true;
}

void JsonWriter::key(std::string_view name) {
  before_value();
  // Member names are identifiers from our own code: plain ASCII, nothing to escape.
  m_body.text().push_back('"');
  m_body.text().append(name);
  m_body.text() += "\":";
  m_need_comma = false;
}

void JsonWriter::string(std::string_view text) {
  before_value();
  append_json_string(m_body.text(), text);
}

void JsonWriter::number(double value) {
  before_value();
  domain::append_number(m_body.text(), value);
}

void JsonWriter::integer(std::int64_t value) {
  before_value();
  domain::append_integer(m_body.text(), value);
}

void JsonWriter::boolean(bool value) {
  before_value();
  m_body.text() += value ? "true" : "false";
}

void JsonWriter::null() {
  before_value();
  m_body.text() += "null";
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  m_body.text().append(json);
}

void JsonWriter::raw_shared(std::string_view json, const std::shared_ptr<const void>& owner) {
  before_value();
  if (m_splicing && owner != nullptr && json.size() >= k_min_spliced_bytes) {
    m_body.splice(json, owner);
  } else {
    m_body.text().append(json);
  }
}

std::string JsonWriter::take() {
  assert(m_body.prefix().size() == m_body.size()); // nothing spliced: a splicing writer's take_body()
  return std::move(m_body.text());
}

} // namespace ashare::api
