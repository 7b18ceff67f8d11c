// Reading CSV records (RFC 4180: commas, double-quoted fields with "" escapes, LF or CRLF line
// ends), one at a time, with the line each record starts on. A UTF-8 byte order mark is skipped.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ashare::import {

struct CsvRecord {
  std::int64_t line = 0; // 1-based line the record starts on
  std::vector<std::string> fields;
};

class CsvReader {
public:
  explicit CsvReader(std::istream& in) : m_in(in) {}

  // Read the next record into `record`; return false at the end of input. Blank lines are
  // skipped. An unterminated quoted field ends at the end of input and sets unterminated_quote().
  bool next(CsvRecord& record);

  bool unterminated_quote() const { return m_unterminated_quote; }

private:
  int get();
  int peek();
  bool fill(); // read the next block of input into m_buffer; false at its end
  // Append the field read so far as field `count` of `record`, reusing its storage.
  void end_field(CsvRecord& record, std::size_t& count);

  std::istream& m_in;
  std::string m_buffer; // read in blocks: a character at a time through the stream costs 3x
  std::size_t m_pos = 0;
  std::string m_field;
  std::int64_t m_line = 1;
  bool m_started = false;
  bool m_unterminated_quote = false;
};

} // namespace ashare::import
