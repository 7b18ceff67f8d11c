// Simple moving average, as TA-Lib's TA_SMA (D9).
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// Return the index of the first SMA value for `window`: window - 1.
constexpr int sma_lookback(int window) {
  return window - 1;
}

// Return the simple moving average of `values` over `window` points, aligned with `values`:
// entry i averages values[i-window+1..i]; entries before sma_lookback(window) are NaN.
// Requires window >= 1. One pass, with TA-Lib's running sum.
std::vector<double> sma(std::span<const double> values, int window);

} // namespace ashare::indicators
