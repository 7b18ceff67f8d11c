#include "core/members/open_days.hpp"

#include <algorithm>

namespace ashare::members {

using domain::Date;

OpenDays::OpenDays(std::vector<Date> open_days, std::optional<std::pair<Date, Date>> span)
    : m_open(std::move(open_days)), m_span(span) {}

bool OpenDays::covers(Date day) const {
  return m_span && m_span->first <= day && day <= m_span->second;
}

Date OpenDays::on_or_after(Date day) const {
  if (!covers(day)) {
    return day;
  }
  const auto it = std::lower_bound(m_open.begin(), m_open.end(), day);
  return it == m_open.end() ? day : *it;
}

Date OpenDays::on_or_before(Date day) const {
  if (!covers(day)) {
    return day;
  }
  const auto it = std::upper_bound(m_open.begin(), m_open.end(), day);
  return it == m_open.begin() ? day : *std::prev(it);
}

Date OpenDays::before(Date day) const {
  return on_or_before(day.plus_days(-1));
}

OpenDays load_open_days(store::MarketRecord& market) {
  const auto span = market.load_calendar_span();
  if (!span) {
    return OpenDays({}, std::nullopt);
  }
  return OpenDays(market.load_open_days(span->first, span->second), span);
}

} // namespace ashare::members
