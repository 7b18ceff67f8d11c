// A small streaming JSON writer: appends straight to one string, numbers per D12 (shortest
// round-trip digits, never exponent notation), strings escaped and made valid UTF-8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ashare::api {

class JsonWriter {
public:
  // Reserve `bytes` of output up front.
  explicit JsonWriter(std::size_t bytes = 256) { m_out.reserve(bytes); }

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();

  // Write `name` as the next member's key; `name` is a plain ASCII identifier, written unescaped.
  void key(std::string_view name);

  void string(std::string_view text);
  void number(double value); // requires a finite value
  void integer(std::int64_t value);
  void boolean(bool value);
  void null();

  // Write `json`, already-serialised JSON, as the next value.
  void raw(std::string_view json);

  // Return the document and leave the writer empty.
  std::string take() { return std::move(m_out); }

private:
  void before_value();
  std::string m_out;
  bool m_need_comma = false;
};

// Append `text` to `out` as a JSON string literal, replacing invalid UTF-8 with U+FFFD.
void append_json_string(std::string& out, std::string_view text);

} // namespace ashare::api
