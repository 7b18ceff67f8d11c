#include "core/fetch/szse_calendar.hpp"

#include <nlohmann/json.hpp>

#include <map>

namespace ashare::fetch {
namespace {

Error bad_month(domain::Date month, const std::string& what) {
  return make_error(ErrorCode::invalid_input,
                    "the SZSE calendar for " + month.iso().substr(0, 7) + " is not usable: " + what);
}

// 1 = Sunday ... 7 = Saturday, as zrxh counts.
unsigned zrxh_of(domain::Date day) {
  return std::chrono::weekday{day.days()}.c_encoding() + 1;
}

domain::Date last_of_month(domain::Date first) {
  const auto ymd = first.ymd();
  const auto last = std::chrono::year_month_day_last{ymd.year(), std::chrono::month_day_last{ymd.month()}};
  return domain::Date{std::chrono::sys_days{last}};
}

} // namespace

std::string szse_month_url(std::string_view base_url, domain::Date month) {
  return std::string(base_url) + "?month=" + month.iso().substr(0, 7);
}

Result<CalendarMonth> read_szse_month(std::string_view body, domain::Date month) {
  const auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("data") || !parsed["data"].is_array()) {
    return bad_month(month, "the reply is not an object with a `data` array");
  }
  CalendarMonth out{month, last_of_month(month), {}};
  std::map<domain::Date, bool> days;
  for (const auto& row : parsed["data"]) {
    if (!row.is_object() || !row.contains("jyrq") || !row["jyrq"].is_string() || !row.contains("jybz")
        || !row["jybz"].is_string() || !row.contains("zrxh") || !row["zrxh"].is_number_integer()) {
      return bad_month(month, "a row without jyrq, jybz and zrxh");
    }
    const auto text = row["jyrq"].get<std::string>();
    const auto day = domain::parse_iso_date(text, "jyrq");
    if (!day || *day < out.first || out.last < *day) {
      return bad_month(month, "a row dated " + text + ", outside the month");
    }
    const auto open = row["jybz"].get<std::string>();
    if (open != "0" && open != "1") {
      return bad_month(month, "jybz " + open + " on " + text + " (0 or 1 expected)");
    }
    if (row["zrxh"].get<std::int64_t>() != static_cast<std::int64_t>(zrxh_of(*day))) {
      return bad_month(month, "zrxh " + row["zrxh"].dump() + " on " + text + ", which is not that weekday");
    }
    if (!days.emplace(*day, open == "1").second) {
      return bad_month(month, text + " twice");
    }
  }
  for (auto day = out.first; !(out.last < day); day = day.plus_days(1)) {
    const auto found = days.find(day);
    if (found == days.end()) {
      const auto weekday = zrxh_of(day);
      if (weekday != 1 && weekday != 7) {
        return bad_month(month, "no row for " + day.iso() + ", a weekday");
      }
      continue; // a weekend day the source left out is closed
    }
    if (found->second) {
      out.open_days.push_back(day);
    }
  }
  return out;
}

} // namespace ashare::fetch
