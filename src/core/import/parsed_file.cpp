#include "core/import/parsed_file.hpp"

#include "core/domain/number.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <cmath>

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

namespace {

// Return `value` as a message shows it: its D12 text when short; else, as a message is no data
// (D12 binds data), the shortest exponent form ("1e+308"), or "inf" where there is no number.
std::string shown(double value) {
  if (!std::isfinite(value)) {
    return value > 0 ? "inf" : value < 0 ? "-inf" : "nan";
  }
  auto text = domain::format_number(value);
  if (text.size() <= 24) {
    return text;
  }
  char buffer[32];
  const auto end = std::to_chars(std::begin(buffer), std::end(buffer), value).ptr;
  return std::string(buffer, end);
}

} // namespace

RowProblem check_bar(const domain::Bar& bar, std::int64_t line, domain::Date latest) {
  if (bar.trade_date < domain::k_first_session || bar.trade_date > latest) {
    return {line, "trade_date",
            bar.trade_date.iso() + " is outside " + domain::k_first_session.iso()
              + " (the first session) to " + latest.iso() + " (today at UTC+8)"};
  }
  const std::pair<const char*, double> prices[] = {
    {"open", bar.open}, {"high", bar.high}, {"low", bar.low}, {"close", bar.close}};
  for (const auto& [column, price] : prices) {
    if (!(price > 0 && price < k_max_price)) {
      return {line, column, "price " + shown(price) + " must be above 0 and below 1000000000"};
    }
  }
  if (bar.high < std::max(bar.open, bar.close)) {
    return {line, "high",
            "high " + shown(bar.high) + " is below max(open, close) "
              + shown(std::max(bar.open, bar.close))};
  }
  if (bar.low > std::min(bar.open, bar.close)) {
    return {line, "low",
            "low " + shown(bar.low) + " is above min(open, close) "
              + shown(std::min(bar.open, bar.close))};
  }
  if (bar.volume < 0 || bar.volume > k_max_volume) {
    return {line, "volume",
            "volume " + std::to_string(bar.volume) + " must be from 0 to 1000000000000000"};
  }
  if (!(bar.turnover >= 0 && bar.turnover < k_max_turnover)) {
    return {line, "turnover",
            "turnover " + shown(bar.turnover) + " must be at least 0 and below 1000000000000000"};
  }
  if (!(bar.change_pct >= k_min_change_pct && bar.change_pct <= k_max_change_pct)) {
    return {line, "change_pct",
            "change_pct " + shown(bar.change_pct) + " must be from -100 to 10000"};
  }
  if (!(bar.factor >= k_min_factor && bar.factor <= k_max_factor)) {
    return {line, "factor",
            "factor " + shown(bar.factor) + " must be from 0.000001 to 1000000000"};
  }
  return {line, "", ""};
}

} // namespace ashare::import
