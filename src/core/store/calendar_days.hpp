// D19: the rows of the calendar table over a span, as both backends write them: every day of the
// span, open or closed, so that a day the table lacks is unknown rather than closed.
#pragma once

#include "core/domain/date.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ashare::store {

struct CalendarDay {
  std::int64_t yyyymmdd = 0;
  bool is_open = false;
};

// Return every day of [`from`, `to`] in order, open when it is in `open_days` (ascending; days
// outside the span are ignored), closed otherwise. Empty when `to` is before `from`.
std::vector<CalendarDay> calendar_days(domain::Date from,
                                       domain::Date to,
                                       std::span<const domain::Date> open_days);

// Return the rows of the shipped calendar (domain/shipped_calendar.hpp): what a new store holds.
std::vector<CalendarDay> shipped_calendar_days();

} // namespace ashare::store
