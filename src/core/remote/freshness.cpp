#include "core/remote/freshness.hpp"

#include "core/domain/date.hpp"

#include <chrono>

namespace ashare::remote {
namespace {

constexpr std::int64_t k_close_after_midnight_ms = 15 * 3'600'000; // 15:00 at UTC+8

bool is_weekday(domain::Date date) {
  const std::chrono::weekday day{date.days()};
  return day != std::chrono::Saturday && day != std::chrono::Sunday;
}

} // namespace

std::int64_t latest_session_close(std::int64_t now_ms) {
  domain::Date day = domain::Date::containing_instant(now_ms);
  // At most a weekend and today lie between now and the latest weekday close.
  while (!is_weekday(day) || day.t_ms() + k_close_after_midnight_ms > now_ms) {
    day = day.plus_days(-1);
  }
  return day.t_ms() + k_close_after_midnight_ms;
}

bool is_check_due(std::optional<std::int64_t> checked_at_ms, std::int64_t now_ms) {
  return !checked_at_ms || *checked_at_ms < latest_session_close(now_ms);
}

} // namespace ashare::remote
