// What the seven indicator commands share (ema, rsi, sma, macd, bbands, atr, kdj): their
// arguments (their options: commands/indicators.cpp), and the run: one request in the API's
// semantics (D9, D13), every value of a --from/--to window, a note when more values exist.
#pragma once

#include "cli/commands/query_run.hpp"
#include "core/query/indicator_query.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace ashare::cli {

// The arguments of an indicator command; the indicator's own parameters stay nullopt (the API's
// defaults) unless its command declares and the user gives them.
struct IndicatorArgs {
  query::Indicator indicator = query::Indicator::sma;
  std::string symbols;
  std::optional<std::int64_t> window;
  std::optional<std::int64_t> fast, slow, signal; // macd
  std::optional<std::string> k;                    // bbands, as text (D13: no exponent)
  std::optional<std::int64_t> n, m1, m2;           // kdj
  std::string series = "close";
  bool raw = false;
  std::string order = "desc";
  std::optional<std::int64_t> limit;
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::optional<std::string> at;
  bool underlying = false;
  QueryOutputArgs output;
};

// Run the indicator query `args` under `config` and print it; return the exit status.
int run_indicator(const IndicatorArgs& args, const Config& config);

} // namespace ashare::cli
