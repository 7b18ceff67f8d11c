// The exchange's open days as index membership reads them (D19's calendar, D20): a day moved to
// an open day one way or the other. Outside the calendar's span nothing says a day is closed, so
// a day there is taken as it is (and "the open day before" it is the day before).
#pragma once

#include "core/domain/date.hpp"
#include "core/store/market_record.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace ashare::members {

class OpenDays {
public:
  // Keep `open_days` (ascending, each inside `span`), the open days of the calendar `span`
  // covers (nullopt: no calendar, every day taken as it is).
  OpenDays(std::vector<domain::Date> open_days,
           std::optional<std::pair<domain::Date, domain::Date>> span);

  // Return `day` when it is open or outside the calendar, else the next open day (`day` itself
  // when the calendar has none after it).
  domain::Date on_or_after(domain::Date day) const;

  // Return `day` when it is open or outside the calendar, else the last open day before it
  // (`day` itself when the calendar has none before it).
  domain::Date on_or_before(domain::Date day) const;

  // Return the open day before `day`: on_or_before() of the day before.
  domain::Date before(domain::Date day) const;

private:
  bool covers(domain::Date day) const;

  std::vector<domain::Date> m_open;
  std::optional<std::pair<domain::Date, domain::Date>> m_span;
};

// Return the open days of `market`'s whole calendar.
OpenDays load_open_days(store::MarketRecord& market);

} // namespace ashare::members
