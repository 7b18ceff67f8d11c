#include "core/indicators/tdx_sma.hpp"

#include <cassert>

namespace ashare::indicators {

std::vector<double> tdx_sma(std::span<const double> values, int n, int m) {
  assert(1 <= m && m <= n);
  std::vector<double> out(values.size());
  if (values.empty()) {
    return out;
  }
  const auto weight = static_cast<double>(m);
  const auto rest = static_cast<double>(n - m);
  const auto divisor = static_cast<double>(n);
  double previous = values[0];
  out[0] = previous;
  for (std::size_t i = 1; i < values.size(); ++i) {
    previous = (weight * values[i] + rest * previous) / divisor;
    out[i] = previous;
  }
  return out;
}

} // namespace ashare::indicators
