#include "core/indicators/atr.hpp"

#include "core/indicators/sma.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace ashare::indicators {
namespace {

// Return TR[1..]: the true range of every bar after the first, as TA_TRANGE computes it.
std::vector<double> true_ranges(std::span<const double> high,
                                std::span<const double> low,
                                std::span<const double> close) {
  assert(high.size() == low.size() && low.size() == close.size());
  std::vector<double> out;
  for (std::size_t i = 1; i < close.size(); ++i) {
    double greatest = high[i] - low[i];
    const double from_high = std::fabs(close[i - 1] - high[i]);
    greatest = from_high > greatest ? from_high : greatest;
    const double from_low = std::fabs(close[i - 1] - low[i]);
    out.push_back(from_low > greatest ? from_low : greatest);
  }
  return out;
}

} // namespace

std::vector<double> atr(std::span<const double> high,
                        std::span<const double> low,
                        std::span<const double> close,
                        int window) {
  assert(window >= 1);
  std::vector<double> out(close.size(), std::numeric_limits<double>::quiet_NaN());
  const auto ranges = true_ranges(high, low, close);
  const auto n = static_cast<std::size_t>(window);
  if (ranges.size() < n) {
    return out;
  }
  // As TA_ATR: the seed is TA_SMA's value over TR[1..window], then Wilder's recursion in TA-Lib's
  // order (scale, add, divide).
  const auto period = static_cast<double>(window);
  double previous = sma(std::span(ranges).first(n), window)[n - 1];
  out[n] = previous;
  for (std::size_t i = n; i < ranges.size(); ++i) {
    previous *= period - 1;
    previous += ranges[i];
    previous /= period;
    out[i + 1] = previous;
  }
  return out;
}

std::vector<double> tdx_atr(std::span<const double> high,
                            std::span<const double> low,
                            std::span<const double> close,
                            int window) {
  assert(window >= 1);
  std::vector<double> out(close.size(), std::numeric_limits<double>::quiet_NaN());
  const auto ranges = true_ranges(high, low, close);
  const auto averages = sma(ranges, window);
  for (std::size_t i = 0; i < averages.size(); ++i) {
    out[i + 1] = averages[i];
  }
  return out;
}

} // namespace ashare::indicators
