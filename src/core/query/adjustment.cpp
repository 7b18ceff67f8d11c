#include "core/query/adjustment.hpp"

#include <cmath>

namespace ashare::query {

double round4(double x) {
  return std::round(x * 10000) / 10000;
}

domain::Bar adjust_forward(const domain::Bar& raw, double latest_factor) {
  domain::Bar out = raw;
  // D8: evaluate price * factor first, then divide; precomputing factor / latest_factor changes
  // the result on decimal ties.
  out.open = round4(adjusted_price(raw.open, raw.factor, latest_factor));
  out.high = round4(adjusted_price(raw.high, raw.factor, latest_factor));
  out.low = round4(adjusted_price(raw.low, raw.factor, latest_factor));
  out.close = round4(adjusted_price(raw.close, raw.factor, latest_factor));
  return out;
}

void forward_adjust(std::span<domain::Bar> bars, double latest_factor) {
  for (auto& bar : bars) {
    // D8: the anchor is the symbol's latest stored bar, never the latest bar of the range.
    bar = adjust_forward(bar, latest_factor);
  }
}

} // namespace ashare::query
