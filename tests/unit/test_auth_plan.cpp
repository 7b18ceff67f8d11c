#include "testutil.hpp"

#include "core/auth/plan.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ashare;
using auth::Plan;
using test::date;

TEST_CASE("D6: the plan table") {
  const struct {
    Plan plan;
    const char* name;
    int max_limit;
    int max_symbols;
    std::optional<int> history_years;
  } expected[] = {
      {Plan::free, "free", 500, 1, 2},
      {Plan::basic, "basic", 5000, 5, 5},
      {Plan::pro, "pro", 5000, 20, std::nullopt},
  };
  const auto table = auth::plan_table();
  REQUIRE(table.size() == std::size(expected));
  for (std::size_t i = 0; i < table.size(); ++i) {
    CAPTURE(std::string_view(expected[i].name));
    CHECK(table[i].plan == expected[i].plan);
    CHECK(table[i].name == expected[i].name);
    CHECK(table[i].max_limit == expected[i].max_limit);
    CHECK(table[i].max_symbols == expected[i].max_symbols);
    CHECK(table[i].history_years == expected[i].history_years);
    CHECK(&auth::plan_limits(expected[i].plan) == &table[i]);
  }
}

TEST_CASE("auth::parse_plan") {
  SUBCASE("any letter case") {
    CHECK(*auth::parse_plan("free") == Plan::free);
    CHECK(*auth::parse_plan("FREE") == Plan::free);
    CHECK(*auth::parse_plan("Basic") == Plan::basic);
    CHECK(*auth::parse_plan("pRo") == Plan::pro);
  }
  SUBCASE("anything else is INVALID_PARAMETER") {
    for (const char* text : {"gold", "", " free", "fre", "free "}) {
      CAPTURE(std::string_view(text));
      const auto plan = auth::parse_plan(text);
      REQUIRE_FALSE(plan.ok());
      CHECK(plan.error().code == ErrorCode::invalid_parameter);
      CHECK(plan.error().message
            == "invalid plan \"" + std::string(text) + "\": expected free, basic or pro");
    }
  }
}

TEST_CASE("D6: auth::earliest_reachable counts calendar years back from as_of") {
  const struct {
    Plan plan;
    const char* as_of;
    const char* earliest;
  } table[] = {
      {Plan::free, "2025-10-23", "2023-10-23"},  {Plan::basic, "2025-10-23", "2020-10-23"},
      {Plan::free, "2024-02-29", "2022-02-28"}, // 29 February falls back to 28 February
      {Plan::basic, "2024-02-29", "2019-02-28"}, {Plan::free, "2026-02-28", "2024-02-28"},
      {Plan::basic, "2025-02-28", "2020-02-28"},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.as_of));
    const auto earliest = auth::earliest_reachable(row.plan, date(row.as_of));
    REQUIRE(earliest.has_value());
    CHECK(earliest->iso() == row.earliest);
  }
  SUBCASE("pro reaches all history") {
    CHECK_FALSE(auth::earliest_reachable(Plan::pro, date("2025-10-23")).has_value());
  }
}
