#include "core/indicators/ema.hpp"

#include <cassert>
#include <limits>

namespace ashare::indicators {

std::vector<double> ema(std::span<const double> values, int window) {
  assert(window >= 1);
  if (window == 1) {
    // k = 1: D9's k*x + (1-k)*prev is exactly x, which TA-Lib's form below (TA-Lib refuses window
    // 1) can miss by rounding when x and prev are more than a factor of 2 apart.
    return {values.begin(), values.end()};
  }
  const auto n = static_cast<std::size_t>(window);
  std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
  if (values.size() < n) {
    return out;
  }
  const double k = 2.0 / (static_cast<double>(window) + 1.0);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sum += values[i];
  }
  double previous = sum / static_cast<double>(window);
  out[n - 1] = previous;
  for (std::size_t i = n; i < values.size(); ++i) {
    // TA-Lib's form of k*x + (1-k)*prev, which rounds the same way TA_EMA does.
    previous = (values[i] - previous) * k + previous;
    out[i] = previous;
  }
  return out;
}

std::vector<double> tdx_ema(std::span<const double> values, int window) {
  assert(window >= 1);
  std::vector<double> out(values.size());
  if (values.empty()) {
    return out;
  }
  const auto older = static_cast<double>(window - 1);
  const auto divisor = static_cast<double>(window + 1);
  double previous = values[0];
  out[0] = previous;
  for (std::size_t i = 1; i < values.size(); ++i) {
    previous = (2 * values[i] + older * previous) / divisor;
    out[i] = previous;
  }
  return out;
}

} // namespace ashare::indicators
