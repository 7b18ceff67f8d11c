// The indicator query of SPEC sections 2-4 and D9: per symbol, the chosen price series of the
// whole stored history (forward-adjusted unrounded, or raw), the indicator over all of it, and
// only then the time filters, the order and the limit, so a value never depends on the filters.
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/symbol.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ashare::query {

enum class Indicator { ema, rsi, sma };

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
  int window = 50;
  store::PriceField series_type = store::PriceField::close;
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
};

struct SymbolValues {
  std::string symbol;
  bool known = false; // false: the store does not know the symbol (no values)
  std::vector<IndicatorValue> values;
  bool has_more = false; // `limit` left values of the filtered range out (D9 next_url)
};

// Return the indicator of `indicator` in `convention` over `series` with `window` (NaN where it has
// no value).
std::vector<double> compute_indicator(Indicator indicator,
                                      Convention convention,
                                      std::span<const double> series,
                                      int window);

// Return the indicator `query` asks for over the whole of `series` (D9), adjusted to
// `latest_factor` when query.adjusted: one value per date of `series` (NaN during the warm-up).
std::vector<double> indicator_series(const store::PriceSeries& series,
                                     const IndicatorQuery& query,
                                     double latest_factor);

// Return the item of known symbol `symbol` from `values`, indicator_series() over the trading days
// `dates`: filtered, ordered and limited as `query` says.
SymbolValues select_values(std::string symbol,
                           std::span<const domain::Date> dates,
                           std::span<const double> values,
                           const IndicatorQuery& query);

// Return the item of known symbol `symbol` from `series`, the symbol's whole history (D9):
// select_values() of indicator_series(). Both the server and the remote-mode cache use it.
SymbolValues values_from_series(std::string symbol,
                                const store::PriceSeries& series,
                                const IndicatorQuery& query,
                                double latest_factor);

} // namespace ashare::query
