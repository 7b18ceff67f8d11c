// 通达信's SMA(X,N,M), the weighted moving average its RSI and KDJ formulas smooth with (D13).
// Not TA-Lib's SMA: that is MA(X,N), sma() here.
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// Return 通达信's SMA(X,N,M) of `values` aligned with `values`: Y[0] = X[0],
// Y[i] = (M*X[i] + (N-M)*Y[i-1]) / N, from index 0 on. Requires 1 <= m <= n.
std::vector<double> tdx_sma(std::span<const double> values, int n, int m);

} // namespace ashare::indicators
