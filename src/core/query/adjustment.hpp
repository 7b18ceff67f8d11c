// Forward adjustment (前复权) of D8: adjusted = round4(raw * factor / F_latest), where F_latest is
// the factor of the symbol's latest stored bar.
#pragma once

#include "core/domain/bar.hpp"

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace ashare::query {

// Round `x` to 4 decimal places exactly as D8 says: std::round(x * 10000) / 10000 (half away from
// zero, on the double as given).
double round4(double x);

// A price forward-adjusted as D8 says: its double, and the whole number of 1/10000s that double is
// nearest to (domain::BarTenThousandths::k_not_whole when that is 10^15 or more in magnitude).
struct AdjustedPrice {
  double value = 0;
  std::int64_t ten_thousandths = 0;
};


// Forward-adjust `bars` and `exact` (their numbers as whole 1/10000s, one per bar) to
// `latest_factor` in place, as adjust_forward() does each bar.
void adjust_forward(std::span<domain::Bar> bars,
                    std::span<domain::BarTenThousandths> exact,
                    double latest_factor);

// Return `raw` with open, high, low and close forward-adjusted to `latest_factor`, each computed
// left to right as round4(price * factor / latest_factor). Volume, turnover, change_pct and factor
// are unchanged.
domain::Bar adjust_forward(const domain::Bar& raw, double latest_factor);

// Forward-adjust every bar of `bars` to `latest_factor` in place (adjust_forward). The one place
// bars are adjusted: the server's histories and the bounded reads (remote mode) both call it.
void forward_adjust(std::span<domain::Bar> bars, double latest_factor);

// Return the unrounded forward-adjusted `price` of a bar with `factor` (D9 series).
inline double adjusted_price(double price, double factor, double latest_factor) {
  return price * factor / latest_factor;
}

// Return std::round(x) (half away from zero, the sign of zero kept) without a libm call: a window
// of a compact history is adjusted per request, four prices a bar (issue 11, P5). Below 2^52 the
// truncation and the fraction x - t are exact; from 2^52 on every double is whole already.
inline double round_half_away(double x) {
  if (!(std::fabs(x) < 4503599627370496.0)) {
    return x; // whole, infinite or NaN
  }
  const auto t = static_cast<double>(static_cast<std::int64_t>(x));
  // Without a branch: whether a price's fraction reaches one half is as good as random, and a
  // mispredicted branch per price cost more than the rest of the rounding.
  const auto away = static_cast<double>(std::fabs(x - t) >= 0.5);
  return std::copysign(t + std::copysign(away, x), x);
}

// Return `price` of a bar with `factor` forward-adjusted to `latest_factor`:
// round4(price * factor / latest_factor), evaluated left to right. Inline, as a compact history's
// window adjusts four prices a bar per request (issue 11, P5).
inline AdjustedPrice adjust_price(double price, double factor, double latest_factor) {
  // D8: evaluate price * factor first, then divide; precomputing factor / latest_factor changes
  // the result on decimal ties. As round4(), keeping the whole number it divides.
  const double whole = round_half_away(adjusted_price(price, factor, latest_factor) * 10000);
  return AdjustedPrice{whole / 10000, std::fabs(whole) < 1e15
                                          ? static_cast<std::int64_t>(whole)
                                          : domain::BarTenThousandths::k_not_whole};
}

// Return adjust_price(`units` / 10000.0, `factor`, `latest_factor`) for a price of `units`
// 1/10000s, given `ratio`, the double nearest to factor / latest_factor: one multiplication where
// D8's evaluation takes two divisions, and D8's evaluation itself in the rare case the two could
// round apart. A compact history's window adjusts four prices a bar per request (issue 11, P5).
inline AdjustedPrice
adjust_units(std::int64_t units, double factor, double latest_factor, double ratio) {
  // D8's four roundings (units / 10000, * factor, / latest_factor, * 10000) and these two
  // (factor / latest_factor, units * ratio) each err by at most 2^-53 of the value, so the two
  // results lie within a * 2^-50 of each other: both round to the same whole number unless a half
  // lies within that distance of `a`. Below 2^40 no result is near 10^15 (not whole), a + 0.5 is
  // an integer only where a is a half, and, with `ratio` in [2^-500, 2^500], no step leaves the
  // normal doubles, where those bounds hold. Negative prices take D8's way.
  constexpr double k_limit = 1099511627776.0; // 2^40
  const double a = static_cast<double>(units) * ratio;
  if (units >= 0 && a < k_limit && ratio > 0x1p-500 && ratio < 0x1p500) {
    // Half away from zero is half up here; `above` is exact (below 1, on a + 0.5's grid).
    const double up = a + 0.5;
    const auto whole = static_cast<std::int64_t>(up);
    const double above = up - static_cast<double>(whole);
    const double margin = a * 0x1p-49;
    if (above > margin && above < 1 - margin) {
      return AdjustedPrice{static_cast<double>(whole) / 10000, whole};
    }
  }
  return adjust_price(static_cast<double>(units) / 10000, factor, latest_factor);
}

} // namespace ashare::query
