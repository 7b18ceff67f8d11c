// One daily bar as the store holds it: raw prices in CNY, volume in shares, turnover in CNY,
// change_pct in percent units and the cumulative adjustment factor (D8).
#pragma once

#include "core/domain/date.hpp"

#include <cstdint>
#include <limits>

namespace ashare::domain {

struct Bar {
  Date trade_date;
  double open = 0;
  double high = 0;
  double low = 0;
  double close = 0;
  std::int64_t volume = 0; // shares
  double turnover = 0;     // CNY
  double change_pct = 0;   // percent units: 1.24 means +1.24%
  double factor = 1;       // cumulative adjustment factor (Tushare adj_factor convention)

  bool operator==(const Bar&) const = default;
};

// The numbers of a bar that the store may hold as whole 1/10000s (store/stored_number), as those
// whole numbers: what a writer prints from their digits, without a double's round trip (issue 11,
// P5). k_not_whole for a number that is not one (then its double is the only form).
struct BarTenThousandths {
  static constexpr std::int64_t k_not_whole = std::numeric_limits<std::int64_t>::min();

  std::int64_t open = k_not_whole;
  std::int64_t high = k_not_whole;
  std::int64_t low = k_not_whole;
  std::int64_t close = k_not_whole;
  std::int64_t turnover = k_not_whole;
  std::int64_t change_pct = k_not_whole;
  std::int64_t factor = k_not_whole;
};

// Return the change_pct the store derives for a bar closing at `close` with `factor` after a bar
// closing at `previous_close` with `previous_factor`, when its source gives none: the adjusted
// close's change in percent, ((close * factor) / (previous_close * previous_factor) - 1) * 100.
inline double derived_change_pct(double close,
                                 double factor,
                                 double previous_close,
                                 double previous_factor) {
  return ((close * factor) / (previous_close * previous_factor) - 1) * 100;
}

enum class SortOrder { asc, desc };

} // namespace ashare::domain
