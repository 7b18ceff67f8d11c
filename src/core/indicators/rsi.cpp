#include "core/indicators/rsi.hpp"

#include "core/indicators/tdx_sma.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace ashare::indicators {
namespace {

// D9: 0 when both averages are 0. (TA-Lib treats |gain + loss| < 1e-8 as 0; that only differs for
// sub-1e-8 average moves, which CNY prices do not make.)
double rsi_value(double gain, double loss) {
  const double total = gain + loss;
  return total == 0 ? 0.0 : 100.0 * (gain / total);
}

} // namespace

std::vector<double> rsi(std::span<const double> values, int window) {
  assert(window >= 1);
  const auto n = static_cast<std::size_t>(window);
  std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
  if (values.size() <= n) {
    return out;
  }
  double gain = 0;
  double loss = 0;
  for (std::size_t i = 1; i <= n; ++i) {
    const double change = values[i] - values[i - 1];
    if (change < 0) {
      loss -= change;
    } else {
      gain += change;
    }
  }
  const auto period = static_cast<double>(window);
  gain /= period;
  loss /= period;
  out[n] = rsi_value(gain, loss);
  for (std::size_t i = n + 1; i < values.size(); ++i) {
    const double change = values[i] - values[i - 1];
    // TA-Lib's order: scale, add the current move, divide.
    gain *= period - 1;
    loss *= period - 1;
    if (change < 0) {
      loss -= change;
    } else {
      gain += change;
    }
    gain /= period;
    loss /= period;
    out[i] = rsi_value(gain, loss);
  }
  return out;
}

std::vector<double> tdx_rsi(std::span<const double> values, int window) {
  assert(window >= 1);
  std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
  if (values.size() < 2) {
    return out;
  }
  std::vector<double> rises;
  std::vector<double> moves;
  for (std::size_t i = 1; i < values.size(); ++i) {
    const double change = values[i] - values[i - 1];
    rises.push_back(std::max(change, 0.0));
    moves.push_back(std::fabs(change));
  }
  const auto rise = tdx_sma(rises, window, 1);
  const auto move = tdx_sma(moves, window, 1);
  for (std::size_t i = 0; i < rise.size(); ++i) {
    out[i + 1] = move[i] == 0 ? 0.0 : rise[i] / move[i] * 100;
  }
  return out;
}

} // namespace ashare::indicators
