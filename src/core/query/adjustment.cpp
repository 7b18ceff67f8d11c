#include "core/query/adjustment.hpp"

#include <cmath>
#include <cstdint>

namespace ashare::query {

namespace {

// Return std::round(x) (half away from zero, the sign of zero kept) without a libm call: a window
// of a compact history is adjusted per request, four prices a bar (issue 11, P5). Below 2^52 the
// truncation and the fraction x - t are exact; from 2^52 on every double is whole already.
double round_half_away(double x) {
  if (!(std::fabs(x) < 4503599627370496.0)) {
    return x; // whole, infinite or NaN
  }
  const auto t = static_cast<double>(static_cast<std::int64_t>(x));
  // Without a branch: whether a price's fraction reaches one half is as good as random, and a
  // mispredicted branch per price cost more than the rest of the rounding.
  const auto away = static_cast<double>(std::fabs(x - t) >= 0.5);
  return std::copysign(t + std::copysign(away, x), x);
}

} // namespace

double round4(double x) {
  return round_half_away(x * 10000) / 10000;
}

AdjustedPrice adjust_price(double price, double factor, double latest_factor) {
  // D8: evaluate price * factor first, then divide; precomputing factor / latest_factor changes
  // the result on decimal ties. As round4(), keeping the whole number it divides.
  const double whole = round_half_away(adjusted_price(price, factor, latest_factor) * 10000);
  return AdjustedPrice{whole / 10000, std::fabs(whole) < 1e15
                                          ? static_cast<std::int64_t>(whole)
                                          : domain::BarTenThousandths::k_not_whole};
}

void adjust_forward(domain::Bar& bar, domain::BarTenThousandths& exact, double latest_factor) {
  const auto adjust = [&](double& price, std::int64_t& ten_thousandths) {
    const auto adjusted = adjust_price(price, bar.factor, latest_factor);
    price = adjusted.value;
    ten_thousandths = adjusted.ten_thousandths;
  };
  adjust(bar.open, exact.open);
  adjust(bar.high, exact.high);
  adjust(bar.low, exact.low);
  adjust(bar.close, exact.close);
}

domain::Bar adjust_forward(const domain::Bar& raw, double latest_factor) {
  domain::Bar out = raw;
  out.open = adjust_price(raw.open, raw.factor, latest_factor).value;
  out.high = adjust_price(raw.high, raw.factor, latest_factor).value;
  out.low = adjust_price(raw.low, raw.factor, latest_factor).value;
  out.close = adjust_price(raw.close, raw.factor, latest_factor).value;
  return out;
}

void forward_adjust(std::span<domain::Bar> bars, double latest_factor) {
  for (auto& bar : bars) {
    // D8: the anchor is the symbol's latest stored bar, never the latest bar of the range.
    bar = adjust_forward(bar, latest_factor);
  }
}

} // namespace ashare::query
