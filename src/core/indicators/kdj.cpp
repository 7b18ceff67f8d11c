#include "core/indicators/kdj.hpp"

#include "core/indicators/sma.hpp"
#include "core/indicators/tdx_sma.hpp"

#include <cassert>
#include <deque>
#include <limits>

namespace ashare::indicators {
namespace {

// The highest high and lowest low of the last min(n, i+1) bars for every bar i, each found once
// with a queue of the candidates still in the window (a value only leaves it as the window moves
// on, or when a later one is as extreme).
struct Extremes {
  std::vector<double> highest;
  std::vector<double> lowest;
};

Extremes extremes(std::span<const double> high, std::span<const double> low, std::size_t n) {
  Extremes out;
  std::deque<std::size_t> highs;
  std::deque<std::size_t> lows;
  for (std::size_t i = 0; i < high.size(); ++i) {
    while (!highs.empty() && high[highs.back()] <= high[i]) {
      highs.pop_back();
    }
    highs.push_back(i);
    while (!lows.empty() && low[lows.back()] >= low[i]) {
      lows.pop_back();
    }
    lows.push_back(i);
    if (highs.front() + n <= i) {
      highs.pop_front();
    }
    if (lows.front() + n <= i) {
      lows.pop_front();
    }
    out.highest.push_back(high[highs.front()]);
    out.lowest.push_back(low[lows.front()]);
  }
  return out;
}

KdjLines with_j(std::vector<double> k, std::vector<double> d) {
  KdjLines out{std::move(k), std::move(d), {}};
  for (std::size_t i = 0; i < out.k.size(); ++i) {
    out.j.push_back(3 * out.k[i] - 2 * out.d[i]);
  }
  return out;
}

} // namespace

KdjLines kdj(std::span<const double> high,
             std::span<const double> low,
             std::span<const double> close,
             int n,
             int m1,
             int m2) {
  assert(n >= 1 && m1 >= 1 && m2 >= 1);
  assert(high.size() == low.size() && low.size() == close.size());
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const auto size = close.size();
  const auto window = static_cast<std::size_t>(n);
  const auto first = static_cast<std::size_t>(kdj_lookback(n, m1, m2));
  std::vector<double> k(size, nan);
  std::vector<double> d(size, nan);
  if (size <= first) {
    return with_j(std::move(k), std::move(d));
  }
  // Fast %K from index n - 1, in TA_STOCH's arithmetic: divided by the range over 100.
  const auto range = extremes(high, low, window);
  std::vector<double> fast;
  for (std::size_t i = window - 1; i < size; ++i) {
    const double spread = (range.highest[i] - range.lowest[i]) / 100.0;
    fast.push_back(spread != 0.0 ? (close[i] - range.lowest[i]) / spread : 0.0);
  }
  // TA_MA of period 1 copies its input; sma() of window 1 divides by 1, which is exact.
  const auto slow_k = sma(fast, m1);
  const auto k_first = static_cast<std::size_t>(m1 - 1);
  const auto slow_d = sma(std::span(slow_k).subspan(k_first), m2);
  const auto d_first = static_cast<std::size_t>(m2 - 1);
  for (std::size_t i = d_first; i < slow_d.size(); ++i) {
    k[first + i - d_first] = slow_k[k_first + i];
    d[first + i - d_first] = slow_d[i];
  }
  return with_j(std::move(k), std::move(d));
}

KdjLines tdx_kdj(std::span<const double> high,
                 std::span<const double> low,
                 std::span<const double> close,
                 int n,
                 int m1,
                 int m2) {
  assert(n >= 1 && m1 >= 1 && m2 >= 1);
  assert(high.size() == low.size() && low.size() == close.size());
  const auto range = extremes(high, low, static_cast<std::size_t>(n));
  std::vector<double> rsv;
  for (std::size_t i = 0; i < close.size(); ++i) {
    const double spread = range.highest[i] - range.lowest[i];
    // D13: 50 when the range is 0 (通达信's formula has no case for it).
    rsv.push_back(spread == 0 ? 50.0 : (close[i] - range.lowest[i]) / spread * 100);
  }
  auto k = tdx_sma(rsv, m1, 1);
  auto d = tdx_sma(k, m2, 1);
  return with_j(std::move(k), std::move(d));
}

} // namespace ashare::indicators
