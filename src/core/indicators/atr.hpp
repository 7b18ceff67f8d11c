// Average true range in D13's two conventions: TA-Lib's TA_ATR (Wilder's smoothing) and 通达信's
// MA of the true range. Both from high, low and close.
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// Return the index of the first ATR value in either convention: window.
constexpr int atr_lookback(int window) {
  return window;
}

// Return TA_ATR(window) of the bars' `high`, `low` and `close` (equal lengths), aligned with them:
// with TR[i] = max(H[i]-L[i], |C[i-1]-H[i]|, |C[i-1]-L[i]|) for i >= 1, the first value (at
// index window) is the mean of TR[1..window], then ATR[i] = (ATR[i-1]*(window-1) + TR[i]) / window;
// window 1 is TR itself. NaN before. Requires window >= 1.
std::vector<double> atr(std::span<const double> high,
                        std::span<const double> low,
                        std::span<const double> close,
                        int window);

// Return 通达信's ATR: MA(TR,N) (sma() of TR[1..]), first at index window. Requires window >= 1.
std::vector<double> tdx_atr(std::span<const double> high,
                            std::span<const double> low,
                            std::span<const double> close,
                            int window);

} // namespace ashare::indicators
