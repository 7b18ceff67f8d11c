// A small streaming JSON writer: appends straight to one string, numbers per D12 (shortest
// round-trip digits, never exponent notation), strings escaped and made valid UTF-8.
#pragma once

#include "core/api/body.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ashare::api {

class JsonWriter {
public:
  // Reserve `bytes` of output up front.
  explicit JsonWriter(std::size_t bytes = 256) { m_body.text().reserve(bytes); }

  // Pieces at least this long are spliced by reference, when splicing; shorter ones cost less to
  // copy than a piece of a gathered write each (a descending window is a piece per bar).
  static constexpr std::size_t k_min_spliced_bytes = 2048;

  // Reserve `bytes`, and splice long raw_shared() values into the Body take_body() returns.
  static JsonWriter splicing(std::size_t bytes) {
    JsonWriter writer(bytes);
    writer.m_splicing = true;
    return writer;
  }

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

  // Write `json`, already-serialised JSON that `owner` keeps alive, as the next value: spliced
  // into the body by reference (Body::splice) when this writer splices and it is long enough.
  void raw_shared(std::string_view json, const std::shared_ptr<const void>& owner);
  // Return the document and leave the writer empty; requires a writer that does not splice.
  std::string take();
  // Return the document as a body and leave the writer empty.
  Body take_body() { return std::move(m_body); }

private:
  void before_value();
  Body m_body;
  bool m_splicing = false;
  bool m_need_comma = false;
};

// Append `text` to `out` as a JSON string literal, replacing invalid UTF-8 with U+FFFD.
void append_json_string(std::string& out, std::string_view text);

} // namespace ashare::api
