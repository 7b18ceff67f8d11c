// api::write_day_members (issue 11, P5): each day's `"trade_date":...,"t":...` text, shared by
// every bar of the day, is what the date says (D2), inside and outside the days it keeps, whichever
// thread asks first.
#include "testutil.hpp"

#include "core/api/day_members.hpp"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

using namespace ashare;
using test::date;

namespace {

std::string expected(domain::Date day) {
  return "\"trade_date\":\"" + day.iso() + "\",\"t\":" + std::to_string(day.t_ms());
}

std::string written(domain::Date day) {
  char text[api::k_day_members_room];
  return std::string(text, api::write_day_members(text, day));
}

} // namespace

TEST_CASE("api::write_day_members writes each day's trade_date and t (D2)") {
  CHECK(written(date("2024-01-02")) == "\"trade_date\":\"2024-01-02\",\"t\":1704124800000");
  // Every day from before the first it keeps (1990-01-01) to after the last (2102).
  for (auto day = date("1989-06-01"); day < date("2103-06-01"); day = day.plus_days(1)) {
    CAPTURE(day.iso());
    REQUIRE(written(day) == expected(day));
  }
  for (const auto* iso : {"0001-01-01", "1969-12-31", "1970-01-01", "9999-12-31"}) {
    CAPTURE(std::string_view(iso));
    CHECK(written(date(iso)) == expected(date(iso)));
  }
}

TEST_CASE("api::write_day_members answers every thread alike while its days are being written") {
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (std::size_t t = 0; t < wrong.size(); ++t) {
    threads.emplace_back([t, &wrong] {
      // From a day of its own, so the threads meet in chunks that are being written.
      for (auto day = date("2030-01-01").plus_days(static_cast<int>(t * 37));
           day < date("2040-01-01"); day = day.plus_days(3)) {
        wrong[t] += written(day) == expected(day) ? 0 : 1;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (const int count : wrong) {
    CHECK(count == 0);
  }
}
