#include "testutil.hpp"

#include "core/domain/shipped_calendar.hpp"
#include "core/store/calendar_days.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ashare;
using test::date;

TEST_CASE("domain::shipped_open_days: the shipped SSE calendar (D19)") {
  const auto days = domain::shipped_open_days();
  CHECK(days.size() == 8797); // data/calendar/README.md
  CHECK(domain::shipped_calendar_first().iso() == "1990-12-19");
  CHECK(domain::shipped_calendar_last().iso() == "2026-12-31");
  CHECK(std::is_sorted(days.begin(), days.end()));
  // Open and closed days, input -> expected.
  const struct {
    int day;
    bool open;
  } k_cases[] = {
    {19901219, true},  {20240102, true},  {20240209, false}, {20240212, false},
    {20240219, true},  {20241001, false}, {20241008, true},  {20240106, false},
  };
  for (const auto& c : k_cases) {
    CAPTURE(c.day);
    CHECK(std::binary_search(days.begin(), days.end(), c.day) == c.open);
  }
  CHECK(domain::shipped_open_dates().size() == days.size());
}

TEST_CASE("store::calendar_days: every day of the span, open when listed") {
  const std::vector<domain::Date> open{date("2024-02-06"), date("2024-02-08"), date("2024-03-01")};
  const auto days = store::calendar_days(date("2024-02-07"), date("2024-02-10"), open);
  REQUIRE(days.size() == 4);
  CHECK(days[0].yyyymmdd == 20240207);
  CHECK(!days[0].is_open);
  CHECK(days[1].is_open);
  CHECK(!days[3].is_open);
  CHECK(store::calendar_days(date("2024-02-10"), date("2024-02-07"), open).empty());
  const auto shipped = store::shipped_calendar_days();
  CHECK(shipped.front().yyyymmdd == 19901219);
  CHECK(shipped.back().yyyymmdd == 20261231);
  CHECK(std::count_if(shipped.begin(), shipped.end(), [](auto d) { return d.is_open; }) == 8797);
}
