// The --overlay option of `ashare chart`: which moving averages to draw over the candles
// ("sma:20,ema:50"), their legend labels, and their values lined up with the bars.
#pragma once

#include "core/domain/bar.hpp"
#include "core/error.hpp"
#include "core/query/indicator_query.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::cli::chart {

// One overlay: an indicator endpoint name ("sma" or "ema") and its window.
struct OverlaySpec {
  std::string indicator;
  int window = 0;
};

// Parse `text`, comma-separated sma:N or ema:N with N from 1 to 5000 (e.g. "sma:20,ema:50");
// INVALID_INPUT quoting the first bad item otherwise.
Result<std::vector<OverlaySpec>> parse_overlays(std::string_view text);

// Return the legend label of `spec`: "SMA 20".
std::string overlay_label(const OverlaySpec& spec);

// Return one value per bar of `bars`: the value of `values` at the bar's `t` (D2), NaN when none.
std::vector<double> align_values(std::span<const domain::Bar> bars,
                                 std::span<const query::IndicatorValue> values);

} // namespace ashare::cli::chart
