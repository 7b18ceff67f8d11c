#include "core/query/adjustment.hpp"

#include <cmath>
#include <cstdint>

namespace ashare::query {

double round4(double x) {
  return round_half_away(x * 10000) / 10000;
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
