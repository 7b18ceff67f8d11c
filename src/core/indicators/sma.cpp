#include "core/indicators/sma.hpp"

#include <cassert>
#include <limits>

namespace ashare::indicators {

std::vector<double> sma(std::span<const double> values, int window) {
  assert(window >= 1);
  const auto n = static_cast<std::size_t>(window);
  std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
  if (values.size() < n) {
    return out;
  }
  // TA-Lib's order of operations: add the new point, emit, then drop the trailing one.
  double total = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    total += values[i];
  }
  for (std::size_t i = n - 1; i < values.size(); ++i) {
    total += values[i];
    const double sum = total;
    total -= values[i + 1 - n];
    out[i] = sum / static_cast<double>(window);
  }
  return out;
}

} // namespace ashare::indicators
