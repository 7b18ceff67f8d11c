#include "cli/output.hpp"

#include <algorithm>

namespace ashare::cli {
namespace {

// Display width of UTF-8 text, counting each code point as one column.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

} // namespace

void print_table(std::ostream& out,
                 const std::vector<TableColumn>& columns,
                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& column : columns) {
    widths.push_back(display_width(column.header));
  }
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  }
  const auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string& cell = i < cells.size() ? cells[i] : std::string();
      const std::string padding(widths[i] - display_width(cell), ' ');
      if (i > 0) {
        line += "  ";
      }
      line += columns[i].align == Align::right ? padding + cell : cell + padding;
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out << line << "\n";
  };
  std::vector<std::string> headers;
  for (const auto& column : columns) {
    headers.push_back(column.header);
  }
  print_row(headers);
  for (const auto& row : rows) {
    print_row(row);
  }
}

} // namespace ashare::cli
