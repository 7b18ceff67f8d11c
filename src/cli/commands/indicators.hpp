// The seven indicator commands (D9, D13) as one table: a row per command, whose own options are
// the API's parameters of its indicator (api::period_params), their ranges and defaults included.
#pragma once

#include "cli/commands/command.hpp"
#include "core/query/indicator_query.hpp"

#include <cassert>
#include <string_view>

namespace ashare::cli {

struct IndicatorCommand {
  std::string_view name;    // the subcommand, as `ashare --help` lists it
  std::string_view summary; // its line in `ashare --help`
  query::Indicator indicator;
};

// In the order `ashare --help` lists them. ema, rsi and sma are moving averages and RSI, of one
// price series; macd gives the MACD line (DIF), its signal line (DEA) and the histogram; bbands
// the middle band and the bands `k` standard deviations above and below it; atr and kdj read
// high, low and close.
inline constexpr IndicatorCommand k_indicator_commands[] = {
    {"ema", "Print exponential moving average values", query::Indicator::ema},
    {"rsi", "Print relative strength index values", query::Indicator::rsi},
    {"sma", "Print simple moving average values", query::Indicator::sma},
    {"macd", "Print MACD line, signal line and histogram values", query::Indicator::macd},
    {"bbands", "Print Bollinger band (BOLL) values", query::Indicator::bbands},
    {"atr", "Print average true range values", query::Indicator::atr},
    {"kdj", "Print stochastic K, D and J values", query::Indicator::kdj},
};

// Declare the options of the indicator command that `command` is named after (a row of
// k_indicator_commands): its indicator's own, then those every indicator command takes.
Action setup_indicator(CLI::App& command, GlobalFlags& flags);

// Return the subcommand table's row of the indicator command of `indicator`.
constexpr CommandSpec indicator_command(query::Indicator indicator) {
  for (const auto& row : k_indicator_commands) {
    if (row.indicator == indicator) {
      return CommandSpec{row.name, row.summary, setup_indicator};
    }
  }
  assert(false && "every indicator has a command");
  return {};
}

} // namespace ashare::cli
