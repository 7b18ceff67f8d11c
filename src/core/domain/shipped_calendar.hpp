// D19: the Shanghai exchange's trading calendar shipped with ashare (data/calendar/, compiled in
// at build time), which every new store starts with. Data, not rules: never derived from bars.
#pragma once

#include "core/domain/date.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ashare::domain {

// Return the shipped open days as YYYYMMDD integers, ascending (1990-12-19 .. 2026-12-31).
std::span<const std::int32_t> shipped_open_days();

// Return the first day the shipped calendar covers (its first open day, 1990-12-19).
Date shipped_calendar_first();

// Return the last day the shipped calendar covers (2026-12-31): later days are unknown to it.
Date shipped_calendar_last();

// Return shipped_open_days() as dates.
std::vector<Date> shipped_open_dates();

} // namespace ashare::domain
