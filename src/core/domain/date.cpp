#include "core/domain/date.hpp"

#include "core/domain/decimal_digits.hpp"
#include "core/domain/text.hpp"

#include <charconv>
#include <cstring>

namespace ashare::domain {
namespace {

using namespace std::chrono;

constexpr std::int64_t k_ms_per_day = 86'400'000;
constexpr std::int64_t k_utc8_offset_ms = 8 * 3'600'000;

int digits_value(std::string_view text) {
  int value = 0;
  for (char c : text) {
    value = value * 10 + (c - '0');
  }
  return value;
}

} // namespace

std::optional<Date> Date::from_ymd(int year, unsigned month, unsigned day) {
  const year_month_day ymd{std::chrono::year{year}, std::chrono::month{month}, std::chrono::day{day}};
  if (!ymd.ok()) {
    return std::nullopt;
  }
  return Date{sys_days{ymd}};
}

std::optional<Date> Date::from_yyyymmdd(std::int64_t yyyymmdd) {
  if (yyyymmdd < 0 || yyyymmdd > 99'991'231) {
    return std::nullopt;
  }
  return from_ymd(static_cast<int>(yyyymmdd / 10000),
                  static_cast<unsigned>(yyyymmdd / 100 % 100),
                  static_cast<unsigned>(yyyymmdd % 100));
}

Date Date::containing_instant(std::int64_t t_ms) {
  const std::int64_t shifted = t_ms + k_utc8_offset_ms;
  std::int64_t day = shifted / k_ms_per_day;
  if (shifted % k_ms_per_day < 0) {
    --day; // floor division for instants before 1970
  }
  return Date{sys_days{std::chrono::days{day}}};
}

Date today_utc8() {
  const auto now = std::chrono::time_point_cast<std::chrono::milliseconds>(
    std::chrono::system_clock::now());
  return Date::containing_instant(now.time_since_epoch().count());
}

std::int64_t Date::yyyymmdd() const {
  const auto date = ymd();
  return static_cast<std::int64_t>(static_cast<int>(date.year())) * 10000
         + static_cast<unsigned>(date.month()) * 100 + static_cast<unsigned>(date.day());
}

void Date::write_iso(char* out) const {
  const auto date = ymd();
  const auto year = static_cast<unsigned>(static_cast<int>(date.year())); // 0001 to 9999 (D2)
  write_digit_pair(out, year / 100 % 100);
  write_digit_pair(out + 2, year % 100);
  out[4] = '-';
  write_digit_pair(out + 5, static_cast<unsigned>(date.month()));
  out[7] = '-';
  write_digit_pair(out + 8, static_cast<unsigned>(date.day()));
}

std::string Date::iso() const {
  std::string out(10, '\0');
  write_iso(out.data());
  return out;
}

std::int64_t Date::t_ms() const {
  return static_cast<std::int64_t>(m_days.time_since_epoch().count()) * k_ms_per_day
         - k_utc8_offset_ms;
}

char* Date::write_t_ms(char* out) const {
  // 00:00 in UTC+8 is a whole number of 100,000 ms since the epoch (86,400,000 * days -
  // 28,800,000): its last five digits are zeros, and the rest take half the time to write (a
  // compact history's window writes one a bar per request, issue 11, P5).
  static_assert(k_ms_per_day % 100'000 == 0 && k_utc8_offset_ms % 100'000 == 0);
  const std::int64_t hundred_thousands =
    static_cast<std::int64_t>(m_days.time_since_epoch().count()) * (k_ms_per_day / 100'000)
    - k_utc8_offset_ms / 100'000; // never 0: 288 is no multiple of 864
  if (hundred_thousands >= 1'000'000 && hundred_thousands < 100'000'000) {
    // 1973-03-03 to 5138-11-16: seven or eight digits, written without a loop.
    const auto value = static_cast<unsigned>(hundred_thousands);
    if (value >= 10'000'000) {
      write_digit_pair(out, value / 1'000'000);
      out += 2;
    } else {
      *out++ = static_cast<char>('0' + value / 1'000'000);
    }
    write_digit_pair(out, value / 10'000 % 100);
    write_digit_pair(out + 2, value / 100 % 100);
    write_digit_pair(out + 4, value % 100);
    out += 6;
  } else {
    out = std::to_chars(out, out + 20, hundred_thousands).ptr;
  }
  std::memcpy(out, "00000", 5);
  return out + 5;
}

Date Date::minus_years(int years) const {
  const auto date = ymd();
  year_month_day earlier{date.year() - std::chrono::years{years}, date.month(), date.day()};
  if (!earlier.ok()) {
    earlier = year_month_day{earlier.year(), earlier.month(), std::chrono::day{28}};
  }
  return Date{sys_days{earlier}};
}

Result<Date> parse_iso_date(std::string_view text, std::string_view parameter) {
  const auto fail = [&](std::string_view why) {
    return make_error(ErrorCode::invalid_parameter,
                      "invalid " + std::string(parameter) + " \"" + std::string(text) + "\": "
                        + std::string(why));
  };
  const bool shaped = text.size() == 10 && text[4] == '-' && text[7] == '-'
                      && is_digit(text[0]) && is_digit(text[1]) && is_digit(text[2])
                      && is_digit(text[3]) && is_digit(text[5]) && is_digit(text[6])
                      && is_digit(text[8]) && is_digit(text[9]);
  if (!shaped) {
    return fail("expected a date YYYY-MM-DD");
  }
  const int year = digits_value(text.substr(0, 4));
  if (year == 0) {
    return fail("the year must be 0001 to 9999"); // D2: common date libraries reject year 0
  }
  const auto date = Date::from_ymd(year,
                                   static_cast<unsigned>(digits_value(text.substr(5, 2))),
                                   static_cast<unsigned>(digits_value(text.substr(8, 2))));
  if (!date) {
    return fail("not a real calendar date");
  }
  return *date;
}

Result<std::optional<Date>> parse_optional_iso_date(const std::optional<std::string>& text,
                                                    std::string_view parameter) {
  if (!text) {
    return std::optional<Date>{};
  }
  auto date = parse_iso_date(*text, parameter);
  if (!date) {
    return date.error();
  }
  return std::optional<Date>{*date};
}

} // namespace ashare::domain
