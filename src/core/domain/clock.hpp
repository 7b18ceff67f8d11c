// The current instant, for what depends on "now" (D18: the last completed trading day; `calendar`'s
// default range): the system clock, or for tests the instant that ASHARE_NOW sets (ISO 8601 with
// an offset, e.g. "2024-02-19T16:00:00+08:00"). One place reads ASHARE_NOW.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <chrono>
#include <optional>
#include <string_view>

namespace ashare::domain {

// Parse `text`, an ISO 8601 instant with seconds and an offset: "YYYY-MM-DDTHH:MM:SS" then "Z" or
// "+HH:MM"/"-HH:MM" (fractions of a second are allowed and dropped). INVALID_PARAMETER naming
// `name` and quoting `text` otherwise.
Result<std::chrono::system_clock::time_point> parse_instant(std::string_view text,
                                                            std::string_view name);

// Return the instant `ashare_now` sets when it has a value, else the system clock's now.
Result<std::chrono::system_clock::time_point>
current_instant(std::optional<std::string_view> ashare_now);

// Return current_instant() of the ASHARE_NOW environment variable (unset or empty: the clock).
Result<std::chrono::system_clock::time_point> current_instant();

// Return the date at UTC+8 of `instant` (the exchange's date, whatever the machine's time zone).
Date date_utc8(std::chrono::system_clock::time_point instant);

} // namespace ashare::domain
