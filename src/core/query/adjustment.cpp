#include "core/query/adjustment.hpp"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ashare::query {

double round4(double x) {
  return round_half_away(x * 10000) / 10000;
}

void adjust_forward(std::span<domain::Bar> bars,
                    std::span<domain::BarTenThousandths> exact,
                    double latest_factor) {
  assert(bars.size() == exact.size());
  // A window's factor changes a few times in years: its ratio to latest_factor is divided once
  // a change.
  double factor = std::numeric_limits<double>::quiet_NaN();
  double ratio = 0;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    auto& bar = bars[i];
    if (!(bar.factor == factor)) {
      factor = bar.factor;
      ratio = factor / latest_factor;
    }
    const auto adjust = [&](double& price, std::int64_t& ten_thousandths) {
      const auto adjusted = ten_thousandths != domain::BarTenThousandths::k_not_whole
                              ? adjust_units(ten_thousandths, factor, latest_factor, ratio)
                              : adjust_price(price, factor, latest_factor);
      price = adjusted.value;
      ten_thousandths = adjusted.ten_thousandths;
    };
    adjust(bar.open, exact[i].open);
    adjust(bar.high, exact[i].high);
    adjust(bar.low, exact[i].low);
    adjust(bar.close, exact[i].close);
  }
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
