#include "core/import/csv_reader.hpp"

namespace ashare::import {
namespace {

// Return whether `c` ends or quotes a field, or ends a line.
bool is_special(char c) {
  return c == ',' || c == '\n' || c == '\r' || c == '"';
}

} // namespace

bool CsvReader::fill() {
  constexpr std::size_t k_block = 64 * 1024;
  m_buffer_offset += static_cast<std::int64_t>(m_buffer.size());
  if (m_too_long_line != 0 || m_buffer_offset - m_line_offset > k_max_line_bytes + 1) {
    // The current line has no end within 64 KiB (and a '\r'): refuse it before reading more.
    m_too_long_line = m_line;
    m_buffer.clear();
    m_pos = 0;
    return false;
  }
  m_buffer.resize(k_block);
  m_in.read(m_buffer.data(), static_cast<std::streamsize>(k_block));
  m_buffer.resize(static_cast<std::size_t>(m_in.gcount()));
  m_pos = 0;
  return !m_buffer.empty();
}

int CsvReader::get() {
  if (m_pos == m_buffer.size() && !fill()) {
    return -1;
  }
  return static_cast<unsigned char>(m_buffer[m_pos++]);
}

int CsvReader::peek() {
  if (m_pos == m_buffer.size() && !fill()) {
    return -1;
  }
  return static_cast<unsigned char>(m_buffer[m_pos]);
}

bool CsvReader::end_line() {
  const std::int64_t end = m_buffer_offset + static_cast<std::int64_t>(m_pos) - 1;
  // A CRLF line's '\r' is its line end, not part of its length.
  const bool crlf = end > m_line_offset && m_pos >= 2 && m_buffer[m_pos - 2] == '\r';
  if (end - m_line_offset - (crlf ? 1 : 0) > k_max_line_bytes) {
    m_too_long_line = m_line;
    return false;
  }
  m_line_offset = end + 1;
  ++m_line;
  return true;
}

void CsvReader::end_field(CsvRecord& record, std::size_t& count) {
  if (count == record.fields.size()) {
    record.fields.emplace_back();
  }
  std::swap(record.fields[count++], m_field); // no copy; the old field's storage is reused
  m_field.clear();
}

void CsvReader::start() {
  m_started = true;
  // Skip a UTF-8 BOM (EF BB BF) if the input starts with one.
  if (fill() && m_buffer.compare(0, 3, "\xef\xbb\xbf") == 0) {
    m_pos = 3;
  }
}

// quoted_char(), append_plain_run() and plain_char() are forced inline into next(), the loop over
// a record's characters: GCC -O2 leaves them as calls, which read a file 13% slower (issue 11,
// P3).
[[gnu::always_inline]] inline bool CsvReader::quoted_char(int c, RecordState& state) {
  if (c == -1) {
    if (m_too_long_line == 0) {
      m_unterminated_quote = true; // the field ends with the input
    }
    return false;
  }
  if (c == '"') {
    if (peek() == '"') {
      m_field.push_back('"');
      get();
    } else {
      state.quoted = false;
    }
    return true;
  }
  if (c == '\n' && !end_line()) {
    return false;
  }
  m_field.push_back(static_cast<char>(c));
  return true;
}

[[gnu::always_inline]] inline void CsvReader::append_plain_run() {
  // At once rather than a character at a time (issue 11, P3).
  std::size_t end = m_pos;
  while (end < m_buffer.size() && !is_special(m_buffer[end])) {
    ++end;
  }
  m_field.append(m_buffer, m_pos, end - m_pos);
  m_pos = end;
}

[[gnu::always_inline]] inline bool CsvReader::plain_char(int c,
                                                      CsvRecord& record,
                                                      RecordState& state) {
  if (c == '"' && m_field.empty()) {
    state.quoted = true;
    state.any = true;
  } else if (c == ',') {
    end_field(record, state.count);
    state.any = true;
  } else if (c == '\n') {
    end_line(); // false sets m_too_long_line
    return false;
  } else if (c == -1) {
    if (m_too_long_line == 0
        && m_buffer_offset + static_cast<std::int64_t>(m_pos) - m_line_offset > k_max_line_bytes) {
      m_too_long_line = m_line; // the last line, without a line end
    }
    return false;
  } else if (c == '\r' && peek() == '\n') {
    // CRLF: the '\n' ends the record on the next turn.
  } else {
    m_field.push_back(static_cast<char>(c));
    state.any = true;
    append_plain_run();
  }
  return true;
}

bool CsvReader::next(CsvRecord& record) {
  if (!m_started) {
    start();
  }
  while (true) {
    record.line = m_line;
    m_field.clear();
    int c = get();
    if (c == -1) {
      record.fields.clear();
      return false;
    }
    RecordState state;
    while (state.quoted ? quoted_char(c, state) : plain_char(c, record, state)) {
      c = get();
    }
    // fill() returns false at a line too long as at the end of input: no partial record then.
    if (m_too_long_line != 0) {
      return false;
    }
    if (!state.any && m_field.empty()) {
      continue; // a blank line
    }
    end_field(record, state.count);
    record.fields.resize(state.count);
    return true;
  }
}

} // namespace ashare::import
