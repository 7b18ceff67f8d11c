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

// The largest price an event may leave, in CNY: far above any share's, far below 128 bits.
constexpr std::int64_t k_max_price_cny = 10'000'000'000;

// A price as an exact fraction of CNY.
struct Fraction {
  Wide numerator;
  Wide denominator;
};

// Return `price` after a category-1 event: (p x 10 - cash + rights x price) / (10 + bonus +
// rights), with p = n / d:
//   = (n x 10 x 10^8 - cash x 10^4 x d + rights x price x d) / (d x 10^4 x (10^5 + bonus + rights))
Fraction after_dividends(Fraction price, const XdxrEvent& event) {
  const Wide cash = ten_thousandths(event.cash);          // CNY per 10 shares, x 10^4
  const Wide issue = ten_thousandths(event.rights_price); // CNY, x 10^4
  const Wide bonus = ten_thousandths(event.bonus);        // shares per 10, x 10^4
  const Wide rights = ten_thousandths(event.rights);      // shares per 10, x 10^4
  const Wide shares = 100'000 + bonus + rights;
  return {price.numerator * 10 * 100'000'000 - cash * 10'000 * price.denominator
              + rights * issue * price.denominator,
          price.denominator * 10'000 * shares};
}

// Return `price` after a category-11 event of r new units per old unit: p / r, with r = R / 10^4.
Fraction after_split(Fraction price, const XdxrEvent& event) {
  return {price.numerator * 10'000, price.denominator * ten_thousandths(event.split_ratio())};
}

// Return `price` reduced, and past 10^15 brought back near 10^12 (a billionth of a cent), so that
// any number of events stays within 128 bits; one event of any real size is never rescaled.
Fraction reduced(Fraction price) {
  const Wide common = gcd(price.numerator, price.denominator);
  if (common > 1) {
    price.numerator /= common;
    price.denominator /= common;
  }
  constexpr Wide k_precision = 1'000'000'000'000;
  if (price.denominator > 1000 * k_precision) {
    const Wide step = price.denominator / k_precision;
    price.numerator = (price.numerator >= 0 ? price.numerator + step / 2 : price.numerator - step / 2) / step;
    price.denominator = (price.denominator + step / 2) / step;
  }
  return price;
}

// Return why `event` carries numbers no share could, or an empty string.
std::string unreadable(const XdxrEvent& event) {
  for (const float value : {event.cash, event.rights_price, event.bonus, event.rights}) {
    if (!std::isfinite(value) || value < 0 || value > 1e6f) {
      return "an ex-rights event of " + event.code + " on " + event.day.iso() + " with a number no share carries";
    }
  }
  if (event.category == k_unit_split && ten_thousandths(event.split_ratio()) == 0) {
    return "a split of " + event.code + " on " + event.day.iso() + " into no units";
  }
  return {};
}

} // namespace

Result<std::optional<std::int64_t>> ex_rights_pre_close(std::int64_t previous_close_mils,
                                                        std::span<const XdxrEvent> events,
                                                        Tick tick) {
  if (events.empty()) {
    return std::optional<std::int64_t>();
  }
  if (events.size() > k_max_events_between_bars) {
    return make_error(ErrorCode::invalid_input,
                      std::to_string(events.size()) + " ex-rights events between two bars of "
                          + events.front().code);
  }
  for (const auto& event : events) {
    if (const auto why = unreadable(event); !why.empty()) {
      return make_error(ErrorCode::invalid_input, why);
    }
  }
  if (previous_close_mils < 0 || previous_close_mils > 1'000'000'000) {
    return make_error(ErrorCode::invalid_input, "a close of " + std::to_string(previous_close_mils)
                                                    + " thousandths before an ex-rights event");
  }
  Fraction price{previous_close_mils, 1'000};
  for (const auto& event : events) {
    if (event.category == k_dividends_and_rights) {
      price = reduced(after_dividends(price, event));
    } else if (event.category == k_unit_split) {
      price = reduced(after_split(price, event));
    }
    // Merging units multiplies the price: bounded, so that the next event stays within 128 bits.
    const Wide magnitude = price.numerator < 0 ? -price.numerator : price.numerator;
    if (magnitude > price.denominator * k_max_price_cny) {
      return make_error(ErrorCode::invalid_input, "a price of over " + std::to_string(k_max_price_cny)
                                                      + " CNY after the ex-rights event of " + event.code
                                                      + " on " + event.day.iso());
    }
  }
  // Whole ticks, rounded half up (away from zero for a negative price, which D16 then refuses).
  const auto per_cny = 1'000 / static_cast<Wide>(tick);
  const Wide scaled = price.numerator * per_cny;
  const bool negative = scaled < 0;
  const Wide magnitude = negative ? -scaled : scaled;
  const Wide ticks = (2 * magnitude + price.denominator) / (2 * price.denominator);
  const Wide mils = ticks * static_cast<Wide>(tick);
  return std::optional<std::int64_t>(static_cast<std::int64_t>(negative ? -mils : mils));
}

} // namespace ashare::fetch::tdx
