// Exponential moving average, as TA-Lib's TA_EMA with the default compatibility and an unstable
// period of 0 (D9): seeded with the simple mean of the first `window` points.
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// Return the index of the first EMA value for `window`: window - 1.
constexpr int ema_lookback(int window) {
  return window - 1;
}

// Return the EMA of `values` aligned with `values`: k = 2 / (window + 1),
// EMA[window-1] = mean(values[0..window-1]), EMA[i] = k*values[i] + (1-k)*EMA[i-1]; entries before
// ema_lookback(window) are NaN. Requires window >= 1.
std::vector<double> ema(std::span<const double> values, int window);

} // namespace ashare::indicators
