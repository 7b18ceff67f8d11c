// One daily bar as the store holds it: raw prices in CNY, volume in shares, turnover in CNY,
// change_pct in percent units and the cumulative adjustment factor (D8).
#pragma once

#include "core/domain/date.hpp"

#include <cstdint>

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
