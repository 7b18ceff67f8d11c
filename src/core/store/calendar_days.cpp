#include "core/store/calendar_days.hpp"

#include "core/domain/shipped_calendar.hpp"

#include <algorithm>

namespace ashare::store {

std::vector<CalendarDay> calendar_days(domain::Date from,
                                       domain::Date to,
                                       std::span<const domain::Date> open_days) {
  std::vector<CalendarDay> out;
  if (to < from) {
    return out;
  }
  out.reserve(static_cast<std::size_t>((to.days() - from.days()).count() + 1));
  auto open = std::lower_bound(open_days.begin(), open_days.end(), from);
  for (auto day = from; day <= to; day = day.plus_days(1)) {
    while (open != open_days.end() && *open < day) {
      ++open; // tolerate duplicates
    }
    out.push_back({day.yyyymmdd(), open != open_days.end() && *open == day});
  }
  return out;
}

std::vector<CalendarDay> shipped_calendar_days() {
  const auto open = domain::shipped_open_dates();
  return calendar_days(domain::shipped_calendar_first(), domain::shipped_calendar_last(), open);
}

} // namespace ashare::store
