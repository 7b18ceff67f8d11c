#include "core/fetch/tushare/verify_source.hpp"

#include "core/domain/number.hpp"
#include "core/fetch/tushare/fetch_run.hpp"
#include "core/fetch/tushare/tables.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ashare::fetch::tushare {
namespace {

// Symbols a `daily` call names at most (its ts_code list).
constexpr std::size_t k_codes_per_call = 100;

// The `trade_date` (and `ts_code`) parameters of the calls of `day`.
std::vector<nlohmann::json> params_of(domain::Date day, const std::vector<std::string>& symbols) {
  const auto date = std::to_string(day.yyyymmdd());
  if (symbols.empty()) {
    return {nlohmann::json{{"trade_date", date}}};
  }
  std::vector<nlohmann::json> out;
  for (std::size_t first = 0; first < symbols.size(); first += k_codes_per_call) {
    std::string codes;
    for (std::size_t i = first; i < std::min(symbols.size(), first + k_codes_per_call); ++i) {
      codes += (codes.empty() ? "" : ",") + symbols[i];
    }
    out.push_back(nlohmann::json{{"trade_date", date}, {"ts_code", codes}});
  }
  return out;
}

// Return the decimals `value` is written with in its shortest form (1.074: 3; 8.02: 2).
int decimals_of(double value) {
  const auto text = domain::format_number(value);
  const auto dot = text.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
}

} // namespace

SourceAnswer verify_source(Client& client, const std::vector<std::string>& symbols,
                           const std::vector<domain::Date>& days) {
  SourceAnswer answer;
  answer.bars.provider = "tushare-pro";
  bool adj_permitted = true;
  std::unordered_map<std::string, double> previous_adj;   // symbol -> adj_factor the day before
  std::unordered_map<std::string, double> previous_close; // symbol -> close the day before
  std::unordered_map<std::string, int> decimals;          // symbol -> the most its adj_factor has
  const auto stop = [&](const CallFailure& failure) {
    answer.end = end_of(failure);
    answer.message = failure.message;
    answer.requests = client.requests();
    return answer;
  };
  for (std::size_t d = 0; d < days.size(); ++d) {
    const auto day = days[d];
    for (const auto& params : params_of(day, symbols)) {
      auto daily = client.call("daily", params, "");
      if (auto* failure = std::get_if<CallFailure>(&daily)) {
        return stop(*failure);
      }
      auto rows = read_daily(std::move(std::get<Table>(daily)));
      if (!rows) {
        answer.end = FetchEnd::refused;
        answer.message = "tushare-pro on " + day.iso() + ": " + rows.error().message;
        return answer;
      }
      for (const auto& problem : rows->file.problems) {
        answer.bars.warnings.push_back("tushare-pro: " + rows->code_on_line(problem.line) + " on " + day.iso()
                                       + ": " + problem.column + ": " + problem.message
                                       + " (left out: no bar from the source that day)");
      }
      std::unordered_map<std::string, double> adj;
      if (adj_permitted) {
        auto table = client.call("adj_factor", params, "");
        if (auto* failure = std::get_if<CallFailure>(&table)) {
          if (failure->kind != CallFailure::Kind::permission) {
            return stop(*failure);
          }
          adj_permitted = false;
          answer.bars.warnings.push_back(failure->message + "; the steps are compared along the pre_close chain");
        } else if (auto read = read_adj_factors(std::get<Table>(table))) {
          adj = std::move(*read);
        }
      }
      for (const auto& row : rows->file.rows) {
        const auto& symbol = row.symbol;
        SourceBar bar{row.bar.trade_date, row.bar.open, row.bar.high, row.bar.low, row.bar.close,
                      row.bar.volume, row.bar.turnover, std::nullopt, 0};
        const auto today = adj.find(symbol);
        const auto before = previous_adj.find(symbol);
        if (today != adj.end() && before != previous_adj.end() && before->second > 0) {
          bar.step = today->second / before->second;
          // Each factor is off by half a unit of its last decimal at most: the step by a unit.
          auto& places = decimals[symbol];
          places = std::max({places, decimals_of(today->second), decimals_of(before->second)});
          bar.step_error = std::min(today->second, before->second);
        } else if (const auto close = previous_close.find(symbol);
                   close != previous_close.end() && row.pre_close && *row.pre_close > 0) {
          bar.step = close->second / *row.pre_close;
        }
        if (today != adj.end()) {
          previous_adj[symbol] = today->second;
        }
        previous_close[symbol] = row.bar.close;
        if (d > 0) { // the first day is the one before the window
          answer.bars.bars[symbol].push_back(bar);
        }
      }
    }
  }
  // The unit of the last decimal each symbol's factors were written with (the most seen: 8.02 is
  // 8.0200 among 8.0204s), over the smaller factor of each step.
  for (auto& [symbol, bars] : answer.bars.bars) {
    const auto places = decimals[symbol];
    for (auto& bar : bars) {
      if (bar.step_error > 0) {
        bar.step_error = std::pow(10.0, -places) / bar.step_error;
      }
    }
  }
  answer.requests = client.requests();
  return answer;
}

} // namespace ashare::fetch::tushare
