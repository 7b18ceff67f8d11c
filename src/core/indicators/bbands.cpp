#include "core/indicators/bbands.hpp"

#include "core/indicators/sma.hpp"

#include <cassert>
#include <cmath>
#include <limits>

namespace ashare::indicators {
namespace {

// Return the bands middle +/- k * deviation[i] from index window - 1 on, NaN before.
Bands bands_of(std::vector<double> middle, const std::vector<double>& deviation, double k,
               std::size_t first) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  Bands out{std::move(middle), {}, {}};
  out.upper.assign(out.middle.size(), nan);
  out.lower.assign(out.middle.size(), nan);
  for (std::size_t i = first; i < out.middle.size(); ++i) {
    const double width = deviation[i] * k;
    out.upper[i] = out.middle[i] + width;
    out.lower[i] = out.middle[i] - width;
  }
  return out;
}

} // namespace

Bands bbands(std::span<const double> values, int window, double k) {
  assert(window >= 2 && k > 0);
  auto middle = sma(values, window);
  const auto n = static_cast<std::size_t>(window);
  std::vector<double> deviation(values.size(), std::numeric_limits<double>::quiet_NaN());
  if (values.size() < n) {
    return bands_of(std::move(middle), deviation, k, n - 1);
  }
  // TA_INT_stddev_using_precalc_ma: a running sum of squares (add the new point's square, take the
  // mean, drop the trailing one's), less the square of the SMA; 0 when that is below TA-Lib's
  // epsilon, 1e-14. (Where the window's points are equal, the cancellation leaves a few 1e-13 that
  // TA-Lib keeps: a deviation of about 4e-7, matched here digit for digit.)
  const auto period = static_cast<double>(window);
  double squares = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    squares += values[i] * values[i];
  }
  for (std::size_t i = n - 1; i < values.size(); ++i) {
    squares += values[i] * values[i];
    double variance = squares / period;
    const double trailing = values[i + 1 - n];
    squares -= trailing * trailing;
    variance -= middle[i] * middle[i];
    deviation[i] = variance < 1e-14 ? 0.0 : std::sqrt(variance);
  }
  return bands_of(std::move(middle), deviation, k, n - 1);
}

Bands tdx_boll(std::span<const double> values, int window, double k) {
  assert(window >= 2 && k > 0);
  auto middle = sma(values, window);
  const auto n = static_cast<std::size_t>(window);
  std::vector<double> deviation(values.size(), std::numeric_limits<double>::quiet_NaN());
  // Two passes over each window (its own mean, then the squared deviations from it): exact to the
  // last digits where a running sum of squares cancels.
  for (std::size_t i = n - 1; i < values.size(); ++i) {
    const auto last = values.subspan(i + 1 - n, n);
    double sum = 0;
    for (const double x : last) {
      sum += x;
    }
    const double mean = sum / static_cast<double>(window);
    double squares = 0;
    for (const double x : last) {
      squares += (x - mean) * (x - mean);
    }
    deviation[i] = std::sqrt(squares / static_cast<double>(window - 1));
  }
  return bands_of(std::move(middle), deviation, k, n - 1);
}

} // namespace ashare::indicators
