// MACD in D13's two conventions: TA-Lib's TA_MACD, and 通达信's DIF/DEA/MACD formula.
#pragma once

#include <span>
#include <vector>

namespace ashare::indicators {

// The three lines of a MACD, each aligned with the input series (NaN where it has no value).
struct MacdLines {
  std::vector<double> macd;      // DIF: the fast EMA less the slow one
  std::vector<double> signal;    // DEA: an EMA of the MACD line
  std::vector<double> histogram; // talib: macd - signal; tdx: 2 * (DIF - DEA)
};

// Return the index of the first TA-Lib MACD value: (slow - 1) + (signal - 1).
constexpr int macd_lookback(int slow, int signal) {
  return slow - 1 + signal - 1;
}

// Return TA_MACD(fast, slow, signal) of `values` (default compatibility, unstable period 0): both
// EMAs seeded at index slow - 1 with the mean of their last `fast` or `slow` points (so the fast
// EMA starts late, and D9's ema(fast) - ema(slow) is not this), the signal an EMA of the MACD line
// seeded with its first `signal` values; every line from macd_lookback() on. With signal 1 the
// signal is the MACD line itself and the histogram 0, from index slow - 1: TA-Lib's own answer
// there is misaligned (its EMA lookback is -1 for period 1). Requires 2 <= fast < slow, signal >= 1.
MacdLines macd(std::span<const double> values, int fast, int slow, int signal);

// Return 通达信's MACD of `values`: DIF = EMA(C,fast) - EMA(C,slow), DEA = EMA(DIF,signal),
// histogram = 2 * (DIF - DEA), with tdx_ema(), from index 0. Requires fast, slow, signal >= 1.
MacdLines tdx_macd(std::span<const double> values, int fast, int slow, int signal);

} // namespace ashare::indicators
