#include "core/domain/clock.hpp"

#include <cstdlib>
#include <string>

namespace ashare::domain {
namespace {

using std::chrono::system_clock;

// Read the digits of `text` at [`at`, `at` + `count`) into `out`; false when any is not a digit.
bool digits(std::string_view text, std::size_t at, std::size_t count, int& out) {
  if (at + count > text.size()) {
    return false;
  }
  out = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return false;
    }
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

// Return the offset from UTC in minutes that `zone` ("Z", "+08:00", "-05:30") says.
std::optional<int> offset_minutes(std::string_view zone) {
  if (zone == "Z" || zone == "z") {
    return 0;
  }
  int hours = 0;
  int minutes = 0;
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':'
      || !digits(zone, 1, 2, hours) || !digits(zone, 4, 2, minutes) || hours > 23
      || minutes > 59) {
    return std::nullopt;
  }
  return (zone[0] == '-' ? -1 : 1) * (hours * 60 + minutes);
}

} // namespace

Result<system_clock::time_point> parse_instant(std::string_view text, std::string_view name) {
  const auto refuse = [&] {
    return make_error(ErrorCode::invalid_parameter,
                      "invalid " + std::string(name) + " \"" + std::string(text)
                        + "\": expected an ISO 8601 instant with an offset, e.g. "
                          "2024-02-19T16:00:00+08:00");
  };
  int hour = 0;
  int minute = 0;
  int second = 0;
  if (text.size() < 20 || text[10] != 'T' || text[13] != ':' || text[16] != ':'
      || !digits(text, 11, 2, hour) || !digits(text, 14, 2, minute)
      || !digits(text, 17, 2, second) || hour > 23 || minute > 59 || second > 59) {
    return refuse();
  }
  const auto date = parse_iso_date(text.substr(0, 10), name);
  std::size_t zone = 19;
  if (zone < text.size() && text[zone] == '.') {
    for (++zone; zone < text.size() && text[zone] >= '0' && text[zone] <= '9'; ++zone) {
    }
  }
  const auto offset = offset_minutes(text.substr(zone));
  if (!date || !offset) {
    return refuse();
  }
  const auto local = date->days() + std::chrono::hours{hour} + std::chrono::minutes{minute}
                     + std::chrono::seconds{second};
  return system_clock::time_point{local - std::chrono::minutes{*offset}};
}

Result<system_clock::time_point> current_instant(std::optional<std::string_view> ashare_now) {
  if (ashare_now && !ashare_now->empty()) {
    return parse_instant(*ashare_now, "ASHARE_NOW");
  }
  return system_clock::now();
}

Result<system_clock::time_point> current_instant() {
  const char* value = std::getenv("ASHARE_NOW");
  return current_instant(value != nullptr ? std::optional<std::string_view>(value) : std::nullopt);
}

Date date_utc8(system_clock::time_point instant) {
  const auto ms =
    std::chrono::duration_cast<std::chrono::milliseconds>(instant.time_since_epoch()).count();
  return Date::containing_instant(ms);
}

} // namespace ashare::domain
