// Reading CSV records (RFC 4180: commas, double-quoted fields with "" escapes, LF or CRLF line
// ends), one at a time, with the line each record starts on. A UTF-8 byte order mark is skipped.
// A line longer than k_max_line_bytes ends the input there (D16), so that no line is read into
// memory whole: a 1 GB line costs one block of reading, not a gigabyte.
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

// The longest line a file may have (D16), in bytes, without its line end.
inline constexpr std::int64_t k_max_line_bytes = 64 * 1024;

class CsvReader {
public:
  explicit CsvReader(std::istream& in) : m_in(in) {}

  // Read the next record into `record`; return false at the end of input, or at a line longer
  // than k_max_line_bytes (see too_long_line()). Blank lines are skipped. An unterminated quoted
  // field ends at the end of input and sets unterminated_quote().
  bool next(CsvRecord& record);

  bool unterminated_quote() const { return m_unterminated_quote; }

  // Return the 1-based number of the line longer than k_max_line_bytes that ended the input, or
  // 0 when none did.
  std::int64_t too_long_line() const { return m_too_long_line; }

private:
  int get();
  int peek();
  // Read the next block of input into m_buffer; false at its end or once the current line is
  // longer than k_max_line_bytes.
  bool fill();
  // Note that a line ends at m_pos - 1 (a '\n' just read); false when it was too long.
  bool end_line();
  // Append the field read so far as field `count` of `record`, reusing its storage.
  void end_field(CsvRecord& record, std::size_t& count);

  // What next() knows of the record it reads.
  struct RecordState {
    std::size_t count = 0; // fields ended
    bool any = false;      // a field was ended, quoted or given a character: not a blank line
    bool quoted = false;   // inside a quoted field
  };
  // Read the input's first block, skipping a UTF-8 byte order mark.
  void start();
  // Take `c` (-1: the end of input), read inside a quoted field; return false when the record
  // ends there: at the end of input (the quote unterminated) or a line too long.
  bool quoted_char(int c, RecordState& state);
  // Take `c` (-1: the end of input), read outside quotes, ending fields of `record`; return false
  // when the record ends there: at its line end, the end of input or a line too long.
  bool plain_char(int c, CsvRecord& record, RecordState& state);
  // Append to the field the rest of the unquoted text in the buffer.
  void append_plain_run();

  std::istream& m_in;
  std::string m_buffer; // read in blocks: a character at a time through the stream costs 3x
  std::size_t m_pos = 0;
  std::string m_field;
  std::int64_t m_line = 1;
  std::int64_t m_buffer_offset = 0; // the input offset of m_buffer[0]
  std::int64_t m_line_offset = 0;   // the input offset where the current line starts
  std::int64_t m_too_long_line = 0;
  bool m_started = false;
  bool m_unterminated_quote = false;
};

} // namespace ashare::import
