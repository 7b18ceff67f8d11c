#include "core/indicators/macd.hpp"

#include "core/indicators/ema.hpp"

#include <cassert>
#include <limits>

namespace ashare::indicators {

MacdLines macd(std::span<const double> values, int fast, int slow, int signal) {
  assert(2 <= fast && fast < slow && signal >= 1);
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const auto size = values.size();
  MacdLines out{std::vector<double>(size, nan), std::vector<double>(size, nan),
                std::vector<double>(size, nan)};
  // As TA_MACD: both EMAs from index slow - 1, where the fast one is the mean of its last `fast`
  // points; the MACD line from there.
  const auto first = static_cast<std::size_t>(slow - 1);
  if (size <= first) {
    return out;
  }
  const auto slow_ema = ema(values, slow);
  const auto fast_ema = ema(values.subspan(first + 1 - static_cast<std::size_t>(fast)), fast);
  std::vector<double> line;
  for (std::size_t i = first; i < size; ++i) {
    line.push_back(fast_ema[i + static_cast<std::size_t>(fast) - first - 1] - slow_ema[i]);
  }
  // ema() of window 1 is its input, exactly: the signal then equals the line.
  const auto signal_line = ema(line, signal);
  const auto start = static_cast<std::size_t>(signal - 1);
  for (std::size_t j = start; j < line.size(); ++j) {
    out.macd[first + j] = line[j];
    out.signal[first + j] = signal_line[j];
    out.histogram[first + j] = line[j] - signal_line[j];
  }
  return out;
}

MacdLines tdx_macd(std::span<const double> values, int fast, int slow, int signal) {
  assert(fast >= 1 && slow >= 1 && signal >= 1);
  const auto fast_ema = tdx_ema(values, fast);
  const auto slow_ema = tdx_ema(values, slow);
  MacdLines out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    out.macd.push_back(fast_ema[i] - slow_ema[i]);
  }
  out.signal = tdx_ema(out.macd, signal);
  for (std::size_t i = 0; i < values.size(); ++i) {
    out.histogram.push_back(2 * (out.macd[i] - out.signal[i]));
  }
  return out;
}

} // namespace ashare::indicators
