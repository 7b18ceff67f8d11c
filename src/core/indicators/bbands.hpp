// Bollinger bands in D13's two conventions: TA-Lib's TA_BBANDS over an SMA with the population
// standard deviation, and 通达信's BOLL with the sample standard deviation (估算标准差).
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// The three bands, each aligned with the input series (NaN before the first value, window - 1).
struct Bands {
  std::vector<double> middle;
  std::vector<double> upper;
  std::vector<double> lower;
};

// Return TA_BBANDS(window, k, k, SMA) of `values`: middle = sma(), upper/lower = middle +/- k * the
// population standard deviation of the last `window` points, computed as TA-Lib does (the mean of
// the squares less the square of the mean, 0 below 1e-8). Requires window >= 2, k > 0.
Bands bbands(std::span<const double> values, int window, double k);

// Return 通达信's BOLL of `values`: middle = MA(C,N) (sma()), upper/lower = middle +/- k * STD(C,N),
// the sample standard deviation (divisor N - 1) of the last N points. Requires window >= 2, k > 0.
Bands tdx_boll(std::span<const double> values, int window, double k);

} // namespace ashare::indicators
