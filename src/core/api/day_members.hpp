// The `"trade_date":"YYYY-MM-DD","t":T` members that open a bar's JSON object, written once per
// day and shared by every bar of that day (issue 11, P5): a compact history's window writes one a
// bar per request, and working out a date's digits each time cost a tenth of it.
#pragma once

#include "core/domain/date.hpp"

#include <cstddef>

namespace ashare::api {

// The most characters write_day_members() writes, and the room it needs.
inline constexpr std::size_t k_day_members_room = 48;

// Write the trade_date and t members of a bar of `date` at `out`, which has room for
// k_day_members_room, and return their end. Safe to call from any thread.
char* write_day_members(char* out, domain::Date date);

} // namespace ashare::api
