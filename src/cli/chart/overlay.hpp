// The --overlay option of `ashare chart`: which indicators to draw ("sma:20,bbands,macd"), over the
// candles (SMA, EMA, Bollinger bands) or in a pane of their own below them (RSI, MACD, KDJ, ATR),
// their legend labels, and their values lined up with the bars.
#pragma once

#include "core/domain/bar.hpp"
#include "core/error.hpp"
#include "core/query/indicator_query.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::cli::chart {

// One overlay: the indicator and its own parameters (query.window, fast, slow, signal, k, n, m1,
// m2 as the API has them; the rest of `query` unused).
struct OverlaySpec {
  query::IndicatorQuery query;
};

// Parse `text`, comma-separated items NAME[:P[:P...]]: sma:N and ema:N (N required), bbands[:N[:K]],
// rsi[:N], atr[:N], macd[:FAST[:SLOW[:SIGNAL]]] and kdj[:N[:M1[:M2]]], parameters left out taking
// the API's defaults and checked as the API checks them (D13). INVALID_INPUT quoting the first bad
// item otherwise.
Result<std::vector<OverlaySpec>> parse_overlays(std::string_view text);

// Return whether `spec` is drawn in a pane of its own (RSI, MACD, KDJ, ATR) rather than over the
// candles.
bool has_own_pane(const OverlaySpec& spec);

// Return the legend label of `spec`: "SMA 20", "BOLL 20 2", "MACD 12 26 9".
std::string overlay_label(const OverlaySpec& spec);

// Return the legend labels of the lines `spec` draws, `value` first, then the named values
// (query::extra_value_names): {"DIF", "DEA"} for MACD (whose histogram is drawn as bars),
// {"K", "D", "J"} for KDJ, {"MID", "UPPER", "LOWER"} for BOLL, {label} for the others.
std::vector<std::string> line_labels(const OverlaySpec& spec);

// Return one value per bar of `bars`: `pick` of the value of `values` at the bar's `t` (D2), NaN
// when none.
std::vector<double> align_values(std::span<const domain::Bar> bars,
                                 std::span<const query::IndicatorValue> values,
                                 double query::IndicatorValue::*pick = &query::IndicatorValue::value);

} // namespace ashare::cli::chart
