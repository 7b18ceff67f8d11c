// Relative strength index in D13's two conventions: Wilder's smoothing as TA-Lib's TA_RSI with the
// default compatibility and an unstable period of 0 (D9), and 通达信's RSI formula.
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// Return the index of the first RSI value for `window`: window.
constexpr int rsi_lookback(int window) {
  return window;
}

// Return the RSI of `values` aligned with `values`. With d[i] = values[i] - values[i-1], the first
// average gain and loss are the means of the gains and losses of d[1..window]; then
// avg = (avg*(window-1) + current) / window; RSI = 100 * gain / (gain + loss), and 0 when both
// averages are 0. Entries before rsi_lookback(window) are NaN. Requires window >= 1.
std::vector<double> rsi(std::span<const double> values, int window);

// Return 通达信's RSI(N) of `values` (D13, convention tdx) aligned with `values`: with
// d[i] = values[i] - values[i-1] for i >= 1, SMA(max(d,0),N,1) / SMA(|d|,N,1) * 100 (tdx_sma, both
// seeded at i = 1), and 0 when the denominator is 0. Entry 0 is NaN. Requires window >= 1.
std::vector<double> tdx_rsi(std::span<const double> values, int window);

} // namespace ashare::indicators
