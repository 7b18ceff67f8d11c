#include "core/fetch/tdx/ex_rights.hpp"

#include <cmath>

namespace ashare::fetch::tdx {
namespace {

// 128 bits: every product below fits (GCC and clang; -Wpedantic is told so).
__extension__ typedef __int128 Wide;

// A float32 of an event as the decimal of 4 places nearest to it, in 1/10000.
Wide ten_thousandths(float value) {
  return static_cast<Wide>(std::llround(static_cast<double>(value) * 10'000.0));
}

Wide gcd(Wide a, Wide b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    const Wide r = a % b;
    a = b;
    b = r;
  }
  return a;
}

} // namespace

Result<std::optional<std::int64_t>> ex_rights_pre_close_cents(std::int64_t previous_close_mils,
                                                              std::span<const XdxrEvent> events) {
  if (events.empty()) {
    return std::optional<std::int64_t>();
  }
  if (events.size() > k_max_events_between_bars) {
    return make_error(ErrorCode::invalid_input,
                      std::to_string(events.size()) + " ex-rights events between two bars of "
                          + events.front().code);
  }
  for (const auto& event : events) {
    for (const float value : {event.cash, event.rights_price, event.bonus, event.rights}) {
      if (!std::isfinite(value) || value < 0 || value > 1e6f) {
        return make_error(ErrorCode::invalid_input, "an ex-rights event of " + event.code + " on "
                                                        + event.day.iso() + " with a number no share carries");
      }
    }
  }
  if (previous_close_mils < 0 || previous_close_mils > 1'000'000'000) {
    return make_error(ErrorCode::invalid_input, "a close of " + std::to_string(previous_close_mils)
                                                    + " thousandths before an ex-rights event");
  }
  // The price as an exact fraction of CNY: numerator / denominator.
  Wide numerator = previous_close_mils;
  Wide denominator = 1'000;
  for (const auto& event : events) {
    const Wide cash = ten_thousandths(event.cash);          // CNY per 10 shares, x 10^4
    const Wide price = ten_thousandths(event.rights_price); // CNY, x 10^4
    const Wide bonus = ten_thousandths(event.bonus);        // shares per 10, x 10^4
    const Wide rights = ten_thousandths(event.rights);      // shares per 10, x 10^4
    // (p x 10 - cash + rights x price) / (10 + bonus + rights), with p = n / d:
    //   = (n x 10 x 10^8 - cash x 10^4 x d + rights x price x d) / (d x 10^4 x (10^5 + bonus + rights))
    const Wide shares = 100'000 + bonus + rights;
    numerator = numerator * 10 * 100'000'000 - cash * 10'000 * denominator + rights * price * denominator;
    denominator = denominator * 10'000 * shares;
    const Wide common = gcd(numerator, denominator);
    if (common > 1) {
      numerator /= common;
      denominator /= common;
    }
    // Past 10^15 the fraction is brought back near 10^12 (a billionth of a cent), so that any
    // number of events stays within 128 bits; one event of any real size is never rescaled.
    constexpr Wide k_precision = 1'000'000'000'000;
    if (denominator > 1000 * k_precision) {
      const Wide step = denominator / k_precision;
      numerator = (numerator >= 0 ? numerator + step / 2 : numerator - step / 2) / step;
      denominator = (denominator + step / 2) / step;
    }
  }
  // Cents, rounded half up (away from zero for a negative price, which D16 then refuses).
  const Wide scaled = numerator * 100;
  const bool negative = scaled < 0;
  const Wide magnitude = negative ? -scaled : scaled;
  const Wide cents = (2 * magnitude + denominator) / (2 * denominator);
  return std::optional<std::int64_t>(static_cast<std::int64_t>(negative ? -cents : cents));
}

} // namespace ashare::fetch::tdx
