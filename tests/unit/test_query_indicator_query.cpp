#include "core/query/indicator_query.hpp"

#include "testutil.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace ashare;
using test::same_bits;

namespace {

constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

// The rule select_values() follows, spelled the plain way: every value that is a number and
// passes the filter, in date order, reversed for desc, then cut to the limit.
query::SymbolValues reference(const std::vector<domain::Date>& dates,
                              const query::IndicatorLines& lines,
                              const query::IndicatorQuery& query) {
  query::SymbolValues item{"600519.SH", true, {}, false};
  for (std::size_t i = 0; i < dates.size(); ++i) {
    const auto t = dates[i].t_ms();
    if (!std::isnan(lines.value[i]) && query.filter.accepts(t)) {
      query::IndicatorValue value{t, lines.value[i]};
      if (!lines.second.empty()) {
        value.second = lines.second[i];
        value.third = lines.third[i];
      }
      item.values.push_back(value);
    }
  }
  if (query.order == domain::SortOrder::desc) {
    std::reverse(item.values.begin(), item.values.end());
  }
  if (static_cast<std::int64_t>(item.values.size()) > query.limit) {
    item.has_more = true;
    item.values.resize(static_cast<std::size_t>(query.limit));
  }
  return item;
}

} // namespace

TEST_CASE("query::select_values: filtered, ordered and limited, stopping at the limit (D9)") {
  std::mt19937_64 random(20261126);
  std::vector<domain::Date> dates;
  for (auto day = domain::Date::from_ymd(2020, 1, 2).value(); dates.size() < 300;
       day = day.plus_days(1 + static_cast<int>(random() % 3))) {
    dates.push_back(day);
  }
  const auto t_of = [&](std::size_t i) { return dates[i].t_ms(); };
  for (int round = 0; round < 2000; ++round) {
    CAPTURE(round);
    query::IndicatorLines lines;
    const auto warm_up = random() % 60;
    const bool three_lines = random() % 2 == 0;
    for (std::size_t i = 0; i < dates.size(); ++i) {
      const bool missing = i < warm_up || random() % 20 == 0;
      lines.value.push_back(missing ? k_nan : static_cast<double>(random() % 100000) / 100);
      if (three_lines) {
        lines.second.push_back(static_cast<double>(random() % 1000) / 10);
        lines.third.push_back(random() % 10 == 0 ? k_nan : -static_cast<double>(i));
      }
    }
    query::IndicatorQuery query;
    query.order = random() % 2 == 0 ? domain::SortOrder::asc : domain::SortOrder::desc;
    query.limit = static_cast<std::int64_t>(random() % 320);
    const auto some_t = [&] { return t_of(random() % dates.size()) + (random() % 3 == 0 ? 1 : 0); };
    switch (random() % 5) {
    case 0: // no bound
      break;
    case 1:
      query.filter.gte = some_t();
      query.filter.lte = some_t();
      break;
    case 2:
      query.filter.gt = some_t();
      query.filter.lt = some_t();
      break;
    case 3:
      query.filter.day_t = t_of(random() % dates.size());
      break;
    default:
      query.filter.clip_gte = some_t();
      break;
    }
    const auto expected = reference(dates, lines, query);
    const auto got = query::select_values("600519.SH", dates, lines, query);
    CHECK(got.symbol == expected.symbol);
    CHECK(got.known);
    CHECK(got.has_more == expected.has_more);
    REQUIRE(got.values.size() == expected.values.size());
    for (std::size_t i = 0; i < got.values.size(); ++i) {
      CHECK(got.values[i].timestamp == expected.values[i].timestamp);
      CHECK(same_bits(got.values[i].value, expected.values[i].value));
      CHECK(same_bits(got.values[i].second, expected.values[i].second));
      CHECK(same_bits(got.values[i].third, expected.values[i].third));
    }
  }
}

TEST_CASE("query::select_values: a limit of exactly the matching values has no more") {
  const std::vector<domain::Date> dates{domain::Date::from_ymd(2024, 1, 2).value(),
                                        domain::Date::from_ymd(2024, 1, 3).value(),
                                        domain::Date::from_ymd(2024, 1, 4).value()};
  const query::IndicatorLines lines{{k_nan, 1.5, 2.5}, {}, {}};
  query::IndicatorQuery query;
  query.limit = 2;
  for (const auto order : {domain::SortOrder::asc, domain::SortOrder::desc}) {
    query.order = order;
    const auto item = query::select_values("600519.SH", dates, lines, query);
    CHECK_FALSE(item.has_more);
    REQUIRE(item.values.size() == 2);
    CHECK(item.values.front().value == (order == domain::SortOrder::asc ? 1.5 : 2.5));
  }
  query.limit = 1;
  query.order = domain::SortOrder::desc;
  const auto cut = query::select_values("600519.SH", dates, lines, query);
  CHECK(cut.has_more);
  REQUIRE(cut.values.size() == 1);
  CHECK(cut.values.front().value == 2.5);
  CHECK(cut.values.front().timestamp == dates[2].t_ms());
}
