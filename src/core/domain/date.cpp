#include "core/domain/date.hpp"

namespace ashare::domain {
namespace {

using namespace std::chrono;

constexpr std::int64_t k_ms_per_day = 86'400'000;
constexpr std::int64_t k_utc8_offset_ms = 8 * 3'600'000;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int digits_value(std::string_view text) {
  int value = 0;
  for (char c : text) {
    value = value * 10 + (c - '0');
  }
  return value;
}

void write_digits(char* out, int value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
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

std::int64_t Date::yyyymmdd() const {
  const auto date = ymd();
  return static_cast<std::int64_t>(static_cast<int>(date.year())) * 10000
         + static_cast<unsigned>(date.month()) * 100 + static_cast<unsigned>(date.day());
}

void Date::write_iso(char* out) const {
  const auto date = ymd();
  write_digits(out, static_cast<int>(date.year()), 4);
  out[4] = '-';
  write_digits(out + 5, static_cast<int>(static_cast<unsigned>(date.month())), 2);
  out[7] = '-';
  write_digits(out + 8, static_cast<int>(static_cast<unsigned>(date.day())), 2);
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

} // namespace ashare::domain
