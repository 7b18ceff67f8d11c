// The small hand-made series the chart tests draw: four bars whose candles are easy to check.
#pragma once

#include "testutil.hpp"

#include "cli/chart/layout.hpp"

namespace ashare::test {

// Return a bar on `iso` with the given prices and volume (factor 1).
inline domain::Bar chart_bar(const std::string& iso,
                             double open,
                             double high,
                             double low,
                             double close,
                             std::int64_t volume) {
  return make_bar(iso, open, high, low, close, 1.0, volume);
}

// Up 10 -> 11 (high 12, low 9), down 11 -> 10, a doji at 10, up 10 -> 10.2.
inline cli::chart::ChartData four_bar_chart() {
  cli::chart::ChartData data;
  data.symbol = "600519.SH";
  data.bars = {chart_bar("2024-01-02", 10, 12, 9, 11, 100),
               chart_bar("2024-01-03", 11, 11.5, 9.5, 10, 200),
               chart_bar("2024-01-04", 10, 10.5, 9.8, 10, 50),
               chart_bar("2024-01-05", 10, 10.4, 9.9, 10.2, 80)};
  return data;
}

} // namespace ashare::test
