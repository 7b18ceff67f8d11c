// When remote mode asks the remote how current its data is (issue 4): the data changes only after
// a session close (15:00 UTC+8, Monday to Friday), so the cache asks at most once after each.
#pragma once

#include <cstdint>
#include <optional>

namespace ashare::remote {

// Return the latest session close at or before `now_ms` (Unix ms): 15:00 UTC+8 on a weekday.
// Holidays count as sessions: asking once too often costs one free /healthz request.
std::int64_t latest_session_close(std::int64_t now_ms);

// Return whether the remote's as_of should be asked again at `now_ms`: never asked
// (`checked_at_ms` nullopt), or a session close has passed since `checked_at_ms`.
bool is_check_due(std::optional<std::int64_t> checked_at_ms, std::int64_t now_ms);

} // namespace ashare::remote
