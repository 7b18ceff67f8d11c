// KDJ in D13's two conventions: TA-Lib's TA_STOCH with SMA smoothing (K = slow %K, D = slow %D), and
// 通达信's KDJ formula; J = 3K - 2D in both. From high, low and close.
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// The three lines of a KDJ, each aligned with the bars (NaN where it has no value).
struct KdjLines {
  std::vector<double> k;
  std::vector<double> d;
  std::vector<double> j;
};

// Return the index of the first TA-Lib KDJ value: (n - 1) + (m1 - 1) + (m2 - 1).
constexpr int kdj_lookback(int n, int m1, int m2) {
  return n - 1 + m1 - 1 + m2 - 1;
}

// Return TA_STOCH(n, m1, SMA, m2, SMA) of the bars: fast %K[i] = (C[i] - LL) / ((HH - LL) / 100)
// over the last n bars (0 when HH = LL), K its sma() over m1, D the sma() of K over m2, J = 3K - 2D;
// every line from kdj_lookback() on. Requires n, m1, m2 >= 1.
KdjLines kdj(std::span<const double> high,
             std::span<const double> low,
             std::span<const double> close,
             int n,
             int m1,
             int m2);

// Return 通达信's KDJ: RSV[i] = (C[i] - LLV) / (HHV - LLV) * 100 over the last min(n, i+1) bars (50
// when HHV = LLV), K = SMA(RSV,m1,1), D = SMA(K,m2,1) (tdx_sma()), J = 3K - 2D, from index 0.
// Requires n, m1, m2 >= 1.
KdjLines tdx_kdj(std::span<const double> high,
                 std::span<const double> low,
                 std::span<const double> close,
                 int n,
                 int m1,
                 int m2);

} // namespace ashare::indicators
