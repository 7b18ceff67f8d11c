#include "core/import/parsed_file.hpp"

#include "core/domain/number.hpp"

#include <algorithm>

namespace ashare::import {

std::vector<SymbolRows> rows_by_symbol(ParsedFile& file) {
  std::vector<SymbolRows> runs;
  std::size_t begin = 0;
  for (std::size_t i = 1; i <= file.rows.size(); ++i) {
    if (i == file.rows.size() || file.rows[i].symbol != file.rows[begin].symbol) {
      runs.push_back({file.rows[begin].symbol, std::span<ParsedRow>(&file.rows[begin], i - begin)});
      begin = i;
    }
  }
  return runs;
}

RowProblem check_bar(const domain::Bar& bar, std::int64_t line) {
  using domain::format_number;
  const std::pair<const char*, double> prices[] = {
    {"open", bar.open}, {"high", bar.high}, {"low", bar.low}, {"close", bar.close}};
  for (const auto& [column, price] : prices) {
    if (!(price > 0)) {
      return {line, column, "price " + format_number(price) + " must be greater than 0"};
    }
  }
  if (bar.high < std::max(bar.open, bar.close)) {
    return {line, "high",
            "high " + format_number(bar.high) + " is below max(open, close) "
              + format_number(std::max(bar.open, bar.close))};
  }
  if (bar.low > std::min(bar.open, bar.close)) {
    return {line, "low",
            "low " + format_number(bar.low) + " is above min(open, close) "
              + format_number(std::min(bar.open, bar.close))};
  }
  if (bar.volume < 0) {
    return {line, "volume", "volume " + std::to_string(bar.volume) + " is negative"};
  }
  if (bar.turnover < 0) {
    return {line, "turnover", "turnover " + format_number(bar.turnover) + " is negative"};
  }
  if (!(bar.factor > 0)) {
    return {line, "factor", "factor " + format_number(bar.factor) + " must be greater than 0"};
  }
  return {line, "", ""};
}

} // namespace ashare::import
