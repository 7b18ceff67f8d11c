#include "core/api/params.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <optional>
#include <string>

using namespace ashare;

TEST_CASE("D4: api::parse_bool_param") {
  SUBCASE("true/false and 1/0 in any letter case") {
    const struct {
      const char* text;
      bool value;
    } table[] = {
        {"true", true},   {"TRUE", true},   {"True", true},   {"tRuE", true}, {"1", true},
        {"false", false}, {"FALSE", false}, {"False", false}, {"0", false},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto value = api::parse_bool_param("adjusted", row.text, !row.value);
      REQUIRE(value.ok());
      CHECK(*value == row.value);
    }
  }
  SUBCASE("absent: the fallback") {
    CHECK(*api::parse_bool_param("adjusted", std::nullopt, true) == true);
    CHECK(*api::parse_bool_param("expand_underlying", std::nullopt, false) == false);
  }
  SUBCASE("anything else is INVALID_PARAMETER naming the parameter and value") {
    for (const char* text : {"yes", "no", "2", "", " true", "true ", "t", "01", "truee"}) {
      CAPTURE(std::string_view(text));
      const auto value = api::parse_bool_param("adjusted", text, true);
      REQUIRE_FALSE(value.ok());
      CHECK(value.error().code == ErrorCode::invalid_parameter);
      CHECK(value.error().message
            == "invalid adjusted \"" + std::string(text) + "\": expected true or false");
    }
  }
}

TEST_CASE("D4: api::parse_enum_param") {
  SUBCASE("any letter case, echoed in lower case") {
    for (const char* text : {"desc", "DESC", "Desc", "dEsC"}) {
      CAPTURE(std::string_view(text));
      CHECK(*api::parse_enum_param("sort", text, {"asc", "desc"}, "asc") == "desc");
    }
    CHECK(*api::parse_enum_param("include", "SUMMARY", {"summary"}, "") == "summary");
  }
  SUBCASE("absent: the fallback") {
    CHECK(*api::parse_enum_param("sort", std::nullopt, {"asc", "desc"}, "asc") == "asc");
    CHECK(*api::parse_enum_param("order", std::nullopt, {"asc", "desc"}, "desc") == "desc");
  }
  SUBCASE("outside the set: INVALID_PARAMETER listing the set") {
    const struct {
      const char* name;
      const char* text;
      std::initializer_list<std::string_view> allowed;
      const char* message;
    } table[] = {
        {"sort", "up", {"asc", "desc"}, "invalid sort \"up\": expected asc or desc"},
        {"sort", "", {"asc", "desc"}, "invalid sort \"\": expected asc or desc"},
        {"sort", " asc", {"asc", "desc"}, "invalid sort \" asc\": expected asc or desc"},
        {"include", "Summaries", {"summary"}, "invalid include \"Summaries\": expected summary"},
        {"series_type",
         "VWAP",
         {"open", "high", "low", "close"},
         "invalid series_type \"VWAP\": expected open, high, low or close"},
    };
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto value = api::parse_enum_param(row.name, row.text, row.allowed, "");
      REQUIRE_FALSE(value.ok());
      CHECK(value.error().code == ErrorCode::invalid_parameter);
      CHECK(value.error().message == row.message);
    }
  }
}

TEST_CASE("D4: api::parse_int_param for limit") {
  SUBCASE("a decimal integer from 1 to 5000") {
    const struct {
      const char* text;
      std::int64_t value;
    } table[] = {{"1", 1}, {"30", 30}, {"500", 500}, {"5000", 5000}};
    for (const auto& row : table) {
      CAPTURE(std::string_view(row.text));
      const auto value = api::parse_int_param("limit", row.text, 1, api::k_max_limit);
      REQUIRE(value.ok());
      CHECK(*value == row.value);
    }
  }
  SUBCASE("absent: nullopt") {
    const auto value = api::parse_int_param("limit", std::nullopt, 1, api::k_max_limit);
    REQUIRE(value.ok());
    CHECK_FALSE(value->has_value());
  }
  SUBCASE("everything else is INVALID_PARAMETER") {
    for (const char* text : {"0", "5001", "1.5", "+3", " 3", "3 ", "abc", "", "-1", "1e3", "0x10",
                             "99999999999999999999999", "３"}) {
      CAPTURE(std::string_view(text));
      const auto value = api::parse_int_param("limit", text, 1, api::k_max_limit);
      REQUIRE_FALSE(value.ok());
      CHECK(value.error().code == ErrorCode::invalid_parameter);
      CHECK(value.error().message
            == "invalid limit \"" + std::string(text) + "\": expected an integer from 1 to 5000");
    }
  }
  SUBCASE("the bounds are the caller's") {
    CHECK(api::k_max_limit == 5000);
    CHECK(api::k_max_window == 5000);
    CHECK(**api::parse_int_param("window", "5000", 1, api::k_max_window) == 5000);
    CHECK(api::parse_int_param("window", "5001", 1, api::k_max_window).error().message
          == "invalid window \"5001\": expected an integer from 1 to 5000");
  }
}

TEST_CASE("D13: api::parse_decimal_param, bounds as written") {
  const struct {
    std::string text;
    double value;
  } accepted[] = {{"2", 2},          {"0.5", 0.5},        {"10", 10},
                  {"10.000", 10},    {"0010.0", 10},      {"02.50", 2.5},
                  {"9.99999999999999999999", 10}, // below 10 as written; rounds to 10
                  {"0." + std::string(330, '0') + "1", std::numeric_limits<double>::denorm_min()}};
  for (const auto& row : accepted) {
    CAPTURE(row.text);
    const auto value = api::parse_decimal_param("k", row.text, 10);
    REQUIRE(value.ok());
    REQUIRE(value->has_value());
    CHECK(**value == row.value);
  }
  CHECK_FALSE(api::parse_decimal_param("k", std::nullopt, 10)->has_value());
  for (const std::string text : {"0", "0.0", "000", "10.00000000000000000001", "10.5", "11", "100",
                                 "0011", "1e1", "-1", "+1", ".5", "2.", "", " 2", "2,5", "0x1"}) {
    CAPTURE(text);
    const auto value = api::parse_decimal_param("k", text, 10);
    REQUIRE_FALSE(value.ok());
    CHECK(value.error().code == ErrorCode::invalid_parameter);
    CHECK(value.error().message
          == "invalid k \"" + text + "\": expected a decimal number greater than 0 and at most 10");
  }
}
