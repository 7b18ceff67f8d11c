// The current instant, for what depends on "now" (D18: the last completed trading day; `calendar`'s
// default range): the system clock, or for tests the instant that ASHARE_NOW sets (ISO 8601 with
// an offset, e.g. "2024-02-19T16:00:00+08:00"). One place reads ASHARE_NOW.
// And the clock that what waits is paced by (a fetch's pace, the retries' backoff): a monotonic
// now and a sleep, behind an interface so that tests fake it and pin every wait without sleeping.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <chrono>
#include <optional>
#include <string_view>
#include <thread>

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

// The time waits are measured and made on: a monotonic now, and waiting.
class Clock {
public:
  virtual ~Clock() = default;
  virtual std::chrono::steady_clock::time_point now() = 0;
  virtual void sleep_for(std::chrono::milliseconds duration) = 0;
};

class SystemClock final : public Clock {
public:
  std::chrono::steady_clock::time_point now() override { return std::chrono::steady_clock::now(); }
  void sleep_for(std::chrono::milliseconds duration) override {
    std::this_thread::sleep_for(duration);
  }
};

} // namespace ashare::domain
