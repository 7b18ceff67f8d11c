// Calendar dates of trading days (D2): a value type over std::chrono::sys_days with a strict ISO
// parse, the YYYYMMDD integer form the store uses, and the Unix-millisecond instant `t`.
#pragma once

#include "core/error.hpp"

#include <chrono>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ashare::domain {

class Date {
public:
  constexpr Date() = default;
  constexpr explicit Date(std::chrono::sys_days days) : m_days(days) {}

  // Return the date `year`-`month`-`day`, or nullopt when it is not a real Gregorian date.
  static std::optional<Date> from_ymd(int year, unsigned month, unsigned day);

  // Return the date of a store integer `yyyymmdd` (e.g. 20240102); nullopt when not a real date.
  static std::optional<Date> from_yyyymmdd(std::int64_t yyyymmdd);

  // Return the trading day (UTC+8) that contains the instant `t_ms` (Unix milliseconds).
  static Date containing_instant(std::int64_t t_ms);

  constexpr std::chrono::sys_days days() const { return m_days; }
  std::chrono::year_month_day ymd() const { return std::chrono::year_month_day{m_days}; }

  // Return the date as YYYYMMDD, the form the store keys bars by.
  std::int64_t yyyymmdd() const;

  // Return the date as "YYYY-MM-DD".
  std::string iso() const;

  // Write "YYYY-MM-DD" (10 characters) to `out`.
  void write_iso(char* out) const;

  // Return `t` of D2: the date's midnight at UTC+8 in Unix milliseconds (2024-01-02 -> 1704124800000).
  std::int64_t t_ms() const;

  // Write t_ms() in decimal at `out`, which has room for 20 characters, and return the end.
  char* write_t_ms(char* out) const;

  Date plus_days(int days) const { return Date{m_days + std::chrono::days{days}}; }

  // Return the same month and day `years` earlier; 29 February falls back to 28 February (D6).
  Date minus_years(int years) const;

  friend constexpr auto operator<=>(const Date&, const Date&) = default;

private:
  std::chrono::sys_days m_days{};
};

// The first session of the Shanghai Stock Exchange: no A-share bar is older (D16).
inline constexpr Date k_first_session{
    std::chrono::sys_days{std::chrono::year{1990} / std::chrono::December / std::chrono::day{19}}};

// Return today's date at UTC+8 by the system clock: the latest trade date an import accepts (D16).
Date today_utc8();

// Parse a strict "YYYY-MM-DD" (zero-padded, real Gregorian date, year 0001 to 9999). On failure the message names
// `parameter` and quotes `text` (D2).
Result<Date> parse_iso_date(std::string_view text, std::string_view parameter);

// Parse `text` as parse_iso_date does when it is given; nullopt when it is not (an option left
// out, such as --from).
Result<std::optional<Date>> parse_optional_iso_date(const std::optional<std::string>& text,
                                                    std::string_view parameter);

} // namespace ashare::domain
