// Remote mode's date-range arithmetic (remote/coverage): what the cache holds of a symbol, what a
// window still lacks, and whether the whole history is there.
#include "testutil.hpp"

#include "core/remote/coverage.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using remote::DateRange;
using test::date;

TEST_CASE("remote::merge_ranges joins overlapping and adjacent ranges") {
  struct Row {
    const char* name;
    std::vector<DateRange> in;
    std::vector<DateRange> out;
  };
  const std::vector<Row> rows{
      {"empty", {}, {}},
      {"one",
       {test::date_range("2024-01-01", "2024-01-31")},
       {test::date_range("2024-01-01", "2024-01-31")}},
      {"unsorted, disjoint",
       {test::date_range("2024-03-01", "2024-03-31"), test::date_range("2024-01-01", "2024-01-31")},
       {test::date_range("2024-01-01", "2024-01-31"),
        test::date_range("2024-03-01", "2024-03-31")}},
      {"adjacent days join",
       {test::date_range("2024-01-01", "2024-01-31"), test::date_range("2024-02-01", "2024-02-10")},
       {test::date_range("2024-01-01", "2024-02-10")}},
      {"one day apart stays apart",
       {test::date_range("2024-01-01", "2024-01-30"), test::date_range("2024-02-01", "2024-02-10")},
       {test::date_range("2024-01-01", "2024-01-30"),
        test::date_range("2024-02-01", "2024-02-10")}},
      {"contained",
       {test::date_range("2024-01-01", "2024-12-31"), test::date_range("2024-03-01", "2024-03-31")},
       {test::date_range("2024-01-01", "2024-12-31")}},
      {"overlapping",
       {test::date_range("2024-01-01", "2024-06-30"), test::date_range("2024-03-01", "2024-09-30")},
       {test::date_range("2024-01-01", "2024-09-30")}},
      {"empty ranges dropped", {test::date_range("2024-01-02", "2024-01-01")}, {}},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    CHECK(remote::merge_ranges(row.in) == row.out);
  }
}

TEST_CASE("remote::missing_ranges: what a window lacks") {
  const std::vector<DateRange> covered{test::date_range("2024-01-01", "2024-01-31"),
                                       test::date_range("2024-03-01", "2024-03-31")};
  struct Row {
    const char* first;
    const char* last;
    std::vector<DateRange> missing;
  };
  const std::vector<Row> rows{
      {"2024-01-05", "2024-01-20", {}},
      {"2024-01-01", "2024-03-31", {test::date_range("2024-02-01", "2024-02-29")}},
      {"2023-12-01", "2024-01-10", {test::date_range("2023-12-01", "2023-12-31")}},
      {"2024-03-15", "2024-04-30", {test::date_range("2024-04-01", "2024-04-30")}},
      {"2023-12-01",
       "2024-04-30",
       {test::date_range("2023-12-01", "2023-12-31"), test::date_range("2024-02-01", "2024-02-29"),
        test::date_range("2024-04-01", "2024-04-30")}},
      {"2024-05-01", "2024-05-31", {test::date_range("2024-05-01", "2024-05-31")}},
      {"2024-02-10", "2024-02-01", {}}, // first > last: nothing to fetch
  };
  for (const auto& row : rows) {
    CAPTURE(row.first);
    CAPTURE(row.last);
    CHECK(remote::missing_ranges(covered, date(row.first), date(row.last)) == row.missing);
  }
  CHECK(remote::missing_ranges({}, date("2024-01-01"), date("2024-01-02"))
        == std::vector<DateRange>{test::date_range("2024-01-01", "2024-01-02")});
}

TEST_CASE("remote::reaches_first_session: whole history from 1990-12-19 on") {
  CHECK(domain::k_first_session == date("1990-12-19"));
  CHECK(remote::reaches_first_session(
      std::vector<DateRange>{test::date_range("1990-12-19", "2024-01-01")}));
  CHECK(remote::reaches_first_session(std::vector<DateRange>{
      test::date_range("1980-01-01", "1990-12-01"), test::date_range("2000-01-01", "2024-01-01")}));
  CHECK_FALSE(remote::reaches_first_session(
      std::vector<DateRange>{test::date_range("1990-12-20", "2024-01-01")}));
  CHECK_FALSE(remote::reaches_first_session(std::vector<DateRange>{}));
}
