#include "support/tdx_export.hpp"

#include <bit>
#include <cstdint>
#include <sstream>

namespace ashare::test {

std::vector<std::vector<std::string>> tdx_export_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (number <= 2 || line.find(',') == std::string::npos) {
      continue; // the title, the header and the footer
    }
    line.erase(line.find_last_not_of('\r') + 1);
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) {
      fields.push_back(cell);
    }
    rows.push_back(fields);
  }
  return rows;
}

namespace {

void put_day_word(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out += static_cast<char>((value >> (8 * i)) & 0xff);
  }
}

std::uint32_t price_ticks(std::string price) {
  price.erase(price.find('.'), 1); // "2.551" -> 2551: the export writes 3 decimals
  return static_cast<std::uint32_t>(std::stoul(price));
}

} // namespace

std::string fund_day_from_export_rows(std::vector<std::vector<std::string>>& rows) {
  std::erase_if(rows, [](const auto& row) { return std::stoll(row[5]) > 0xffffffffLL; });
  std::string day;
  for (const auto& row : rows) {
    const auto& date = row[0]; // YYYY/MM/DD
    put_day_word(day, static_cast<std::uint32_t>(
                        std::stoul(date.substr(0, 4) + date.substr(5, 2) + date.substr(8, 2))));
    for (std::size_t column = 1; column <= 4; ++column) {
      put_day_word(day, price_ticks(row[column]));
    }
    put_day_word(day, std::bit_cast<std::uint32_t>(std::stof(row[6])));
    put_day_word(day, static_cast<std::uint32_t>(std::stoul(row[5])));
    put_day_word(day, 0);
  }
  return day;
}

} // namespace ashare::test
