// The indicator query of SPEC sections 2-4, D9 and D13: per symbol, the price series it reads of
// the whole stored history (forward-adjusted unrounded, or raw), the indicator over all of it, and
// only then the time filters, the order and the limit, so a value never depends on the filters.
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/symbol.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

namespace ashare::query {

enum class Indicator { ema, rsi, sma, macd, bbands, atr, kdj };

// Whose arithmetic an indicator follows (D13): TA-Lib's (the default, D9) or 通达信's formulas.
enum class Convention { talib, tdx };

// Bounds on a value's timestamp `t` (Unix ms, D2); every set bound must hold.
struct TimeFilter {
  std::optional<std::int64_t> day_t; // `timestamp`: the t of the trading day holding the instant
  std::optional<std::int64_t> gte;
  std::optional<std::int64_t> gt;
  std::optional<std::int64_t> lte;
  std::optional<std::int64_t> lt;
  std::optional<std::int64_t> clip_gte; // the plan's history window when no lower bound is given

  // Return whether a value at `t` passes every bound.
  bool accepts(std::int64_t t) const;

  friend bool operator==(const TimeFilter&, const TimeFilter&) = default;
};

struct IndicatorQuery {
  std::vector<domain::Symbol> symbols; // canonical, distinct, in request order
  Indicator indicator = Indicator::sma;
  int window = 50; // ema, rsi, sma, bbands, atr
  int fast = 12, slow = 26, signal = 9; // macd
  double k = 2; // bbands
  int n = 9, m1 = 3, m2 = 3; // kdj
  store::PriceField series_type = store::PriceField::close; // not atr, kdj: high, low and close
  bool adjusted = true;
  Convention convention = Convention::talib;
  domain::SortOrder order = domain::SortOrder::desc;
  std::int64_t limit = 10; // per symbol
  TimeFilter filter;

  friend bool operator==(const IndicatorQuery&, const IndicatorQuery&) = default;
};

struct IndicatorValue {
  std::int64_t timestamp = 0; // t of the trading day (D2)
  double value = 0;
  // D13's other named fields, in extra_value_names() order: MACD signal and histogram, BBANDS
  // upper and lower, KDJ d and j; NaN for the others.
  double second = std::numeric_limits<double>::quiet_NaN();
  double third = std::numeric_limits<double>::quiet_NaN();
};

// The lines an indicator computes, each aligned with the input dates (NaN where it has no value):
// `value`, and for MACD, BBANDS and KDJ the two named beside it (empty for the others).
struct IndicatorLines {
  std::vector<double> value;
  std::vector<double> second;
  std::vector<double> third;
};

// Return the names of the value items' fields after `value` for `indicator` (D13): "signal",
// "histogram" (MACD), "upper", "lower" (BBANDS), "d", "j" (KDJ); none for the others.
std::vector<std::string_view> extra_value_names(Indicator indicator);

// Return the price fields `query` reads, in the order indicator_lines() takes them: high, low
// and close for ATR and KDJ, else its series_type.
std::vector<store::PriceField> input_fields(const IndicatorQuery& query);

struct SymbolValues {
  std::string symbol;
  bool known = false; // false: the store does not know the symbol (no values)
  std::vector<IndicatorValue> values;
  bool has_more = false; // `limit` left values of the filtered range out (D9 next_url)
};

// Return the one line of `indicator` (EMA, RSI or SMA) in `convention` over `series` with `window`
// (NaN where it has no value).
std::vector<double> compute_indicator(Indicator indicator,
                                      Convention convention,
                                      std::span<const double> series,
                                      int window);

// The price series of one symbol's whole history an indicator reads, in input_fields() order;
// all of the same dates.
using IndicatorInputs = std::vector<const store::PriceSeries*>;

// Return the indicator `query` asks for over the whole of `inputs` (D9, D13), each adjusted to
// `latest_factor` when query.adjusted: one value per date (NaN where it has none).
IndicatorLines
indicator_lines(const IndicatorInputs& inputs, const IndicatorQuery& query, double latest_factor);

// Return the item of known symbol `symbol` from `lines`, indicator_lines() over the trading days
// `dates`: filtered, ordered and limited as `query` says.
SymbolValues select_values(std::string symbol,
                           std::span<const domain::Date> dates,
                           const IndicatorLines& lines,
                           const IndicatorQuery& query);

// Return the item of known symbol `symbol` from `inputs`, the symbol's whole history (D9):
// select_values() of indicator_lines().
SymbolValues values_from_series(std::string symbol,
                                const IndicatorInputs& inputs,
                                const IndicatorQuery& query,
                                double latest_factor);

// As above, from `series`, the input_fields() of the symbol's whole history, in that order.
SymbolValues values_from_series(std::string symbol,
                                std::span<const store::PriceSeries> series,
                                const IndicatorQuery& query,
                                double latest_factor);

} // namespace ashare::query
