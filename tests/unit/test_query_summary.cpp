#include "testutil.hpp"

#include "core/query/summary.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace ashare;
using test::date;
using test::make_bar;

TEST_CASE("D8: query::summarize") {
  const std::vector<domain::Bar> asc{make_bar("2024-01-02", 10, 12, 9, 11),
                                     make_bar("2024-01-03", 11, 13, 10, 12),
                                     make_bar("2024-01-04", 12, 12.5, 11.5, 12.5)};

  SUBCASE("ascending: first open to last close") {
    const auto summary = query::summarize(asc, date("2024-01-01"), date("2024-01-31"));
    CHECK(summary.from == date("2024-01-01")); // echoes of the window, not of the bars
    CHECK(summary.to == date("2024-01-31"));
    CHECK(summary.bars_count == 3);
    CHECK(summary.open_first == 10.0);
    CHECK(summary.close_last == 12.5);
    CHECK(summary.return_pct == 25.0);
  }

  SUBCASE("descending: the latest open to the earliest close, as SPEC orders it") {
    const std::vector<domain::Bar> desc(asc.rbegin(), asc.rend());
    const auto summary = query::summarize(desc, date("2024-01-01"), date("2024-01-31"));
    CHECK(summary.bars_count == 3);
    CHECK(summary.open_first == 12.0);
    CHECK(summary.close_last == 11.0);
    CHECK(summary.return_pct == -8.3333); // (11 / 12 - 1) * 100 = -8.33333...
  }

  SUBCASE("return_pct is rounded to 4 decimals") {
    const std::vector<domain::Bar> bars{make_bar("2024-01-02", 3, 4, 3, 4)};
    const auto summary = query::summarize(bars, date("2024-01-02"), date("2024-01-02"));
    CHECK(summary.return_pct == 33.3333);
    CHECK(summary.open_first == 3.0);
    CHECK(summary.close_last == 4.0);
  }

  SUBCASE("no bars: count 0 and no numbers") {
    const auto summary = query::summarize({}, date("2024-01-06"), date("2024-01-07"));
    CHECK(summary.from == date("2024-01-06"));
    CHECK(summary.to == date("2024-01-07"));
    CHECK(summary.bars_count == 0);
    CHECK_FALSE(summary.return_pct.has_value());
    CHECK_FALSE(summary.open_first.has_value());
    CHECK_FALSE(summary.close_last.has_value());
  }
}
