// Exponential moving average in D13's two conventions: TA-Lib's TA_EMA with the default
// compatibility and an unstable period of 0 (D9), seeded with the simple mean of the first
// `window` points; and 通达信's EMA, seeded with the first point.
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

// Return 通达信's EMA(X,N) of `values` (D13, convention tdx) aligned with `values`: Y[0] = X[0],
// Y[i] = (2*X[i] + (N-1)*Y[i-1]) / (N+1), from index 0 on. Requires window >= 1.
std::vector<double> tdx_ema(std::span<const double> values, int window);

} // namespace ashare::indicators
