// The keyless calendar source of `fetch tdx` (D19): the Shenzhen exchange's monthList, one month a
// request (GET BASE?month=YYYY-MM), answering {"data":[{"zrxh":3,"jybz":"0","jyrq":"2024-10-01"},
// ...],"nowdate":"..."}: each calendar day of the month with its weekday (zrxh, 1 = Sunday) and
// whether it is open (jybz "1"). The shape is the one recorded in shared/data/real/protocols/
// szse_calendar (a CSV of those rows, 2005-2026) and SOURCES.md (the raw JSON of one reply).
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace ashare::fetch {

// The default address of the month list (D19: a setting, `szse_url` / ASHARE_SZSE_URL).
inline constexpr std::string_view k_szse_month_list_url =
    "http://www.szse.cn/api/report/exchange/onepersistenthour/monthList";

// One month of the exchange's calendar.
struct CalendarMonth {
  domain::Date first; // the month's first day
  domain::Date last;  // its last day
  std::vector<domain::Date> open_days; // ascending
};

// Return the request target of `month` (its first day) under `base_url`.
std::string szse_month_url(std::string_view base_url, domain::Date month);

// Read the monthList reply `body` for `month` (its first day): each row dated in the month once,
// with the weekday (zrxh) of its date and jybz "0" or "1", and no weekday of the month missing;
// anything else is an INVALID_INPUT error saying what. A missing Saturday or Sunday is closed (the
// source's own record lacks 2017-01-01, a Sunday).
Result<CalendarMonth> read_szse_month(std::string_view body, domain::Date month);

} // namespace ashare::fetch
