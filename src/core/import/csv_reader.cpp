#include "core/import/csv_reader.hpp"

namespace ashare::import {

int CsvReader::get() {
  const int c = m_in.get();
  return c == std::char_traits<char>::eof() ? -1 : c;
}

bool CsvReader::next(CsvRecord& record) {
  if (!m_started) {
    m_started = true;
    // Skip a UTF-8 BOM (EF BB BF) if the input starts with one.
    if (m_in.peek() == 0xef) {
      char bom[3];
      m_in.read(bom, 3);
      if (m_in.gcount() != 3 || bom[1] != '\xbb' || bom[2] != '\xbf') {
        m_in.clear();
        m_in.seekg(0);
      }
    }
  }
  while (true) {
    record.fields.clear();
    record.line = m_line;
    std::string field;
    bool any = false;
    bool quoted = false;
    int c = get();
    if (c == -1) {
      return false;
    }
    while (true) {
      if (quoted) {
        if (c == -1) {
          m_unterminated_quote = true;
          record.fields.push_back(std::move(field));
          return true;
        }
        if (c == '"') {
          if (m_in.peek() == '"') {
            field.push_back('"');
            get();
          } else {
            quoted = false;
          }
        } else {
          if (c == '\n') {
            ++m_line;
          }
          field.push_back(static_cast<char>(c));
        }
      } else if (c == '"' && field.empty()) {
        quoted = true;
        any = true;
      } else if (c == ',') {
        record.fields.push_back(std::move(field));
        field.clear();
        any = true;
      } else if (c == '\n' || c == -1) {
        if (c == '\n') {
          ++m_line;
        }
        break;
      } else if (c == '\r' && m_in.peek() == '\n') {
        // CRLF: the '\n' ends the record on the next turn.
      } else {
        field.push_back(static_cast<char>(c));
        any = true;
      }
      c = get();
    }
    if (!any && field.empty()) {
      continue; // a blank line
    }
    record.fields.push_back(std::move(field));
    return true;
  }
}

} // namespace ashare::import
