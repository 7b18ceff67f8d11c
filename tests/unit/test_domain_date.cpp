#include "testutil.hpp"

#include "core/domain/date.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ashare;
using domain::Date;
using test::date;

TEST_CASE("domain::parse_iso_date") {
  SUBCASE("accepts zero-padded real Gregorian dates") {
    const struct {
      const char* text;
      int year;
      unsigned month;
      unsigned day;
    } valid[] = {
        {"2024-01-02", 2024, 1, 2},   {"2024-02-29", 2024, 2, 29}, // leap year
        {"2000-02-29", 2000, 2, 29},                               // divisible by 400
        {"1999-12-31", 1999, 12, 31}, {"1990-12-19", 1990, 12, 19},
        {"0001-01-01", 1, 1, 1},      {"9999-12-31", 9999, 12, 31}, // D2's bounds
    };
    for (const auto& row : valid) {
      CAPTURE(std::string_view(row.text));
      const auto parsed = domain::parse_iso_date(row.text, "from");
      REQUIRE(parsed.ok());
      CHECK(*parsed == *Date::from_ymd(row.year, row.month, row.day));
      CHECK(parsed->iso() == row.text);
    }
  }

  SUBCASE("rejects anything that is not YYYY-MM-DD, naming the parameter (D2)") {
    const char* malformed[] = {
        "2024-1-02",   "2024-01-2",      "24-01-02", "20240102",         "2024/01/02", "2024.01.02",
        " 2024-01-02", "2024-01-02 ",    "",         "2024-01-02T00:00", "+024-01-02", "2024-0a-02",
        "2024--01-2",  "２０２４-01-02",
    };
    for (const char* text : malformed) {
      CAPTURE(std::string_view(text));
      const auto parsed = domain::parse_iso_date(text, "from");
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.error().code == ErrorCode::invalid_parameter);
      CHECK(parsed.error().message
            == "invalid from \"" + std::string(text) + "\": expected a date YYYY-MM-DD");
    }
  }

  SUBCASE("rejects well-shaped dates that do not exist") {
    const char* unreal[] = {"2024-02-30", "2023-02-29", "1900-02-29", "2024-13-01",
                            "2024-00-10", "2024-01-00", "2024-04-31", "2024-01-32"};
    for (const char* text : unreal) {
      CAPTURE(std::string_view(text));
      const auto parsed = domain::parse_iso_date(text, "to");
      REQUIRE_FALSE(parsed.ok());
      CHECK(parsed.error().code == ErrorCode::invalid_parameter);
      CHECK(parsed.error().message
            == "invalid to \"" + std::string(text) + "\": not a real calendar date");
    }
  }
}

TEST_CASE("domain::parse_iso_date refuses year 0000 (D2: years 0001 to 9999)") {
  for (const char* text : {"0000-01-01", "0000-02-29", "0000-12-31"}) {
    CAPTURE(std::string_view(text));
    const auto parsed = domain::parse_iso_date(text, "from");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().code == ErrorCode::invalid_parameter);
    CHECK(parsed.error().message
          == "invalid from \"" + std::string(text) + "\": the year must be 0001 to 9999");
  }
}

TEST_CASE("D2: t is the date's midnight at UTC+8 in Unix milliseconds") {
  const struct {
    const char* iso;
    std::int64_t t_ms;
  } table[] = {
      {"2024-01-02", 1704124800000}, // the example of D2
      {"1970-01-01", -28800000},
      {"2000-02-29", 951753600000},
      {"2025-10-23", 1761148800000},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.iso));
    CHECK(date(row.iso).t_ms() == row.t_ms);
  }
}

TEST_CASE("domain::Date::write_t_ms writes t_ms(), write_iso what parses back (issue 11, P5)") {
  for (auto day = date("1900-01-01"); day < date("2100-01-01"); day = day.plus_days(7)) {
    char text[20];
    const std::string written(text, day.write_t_ms(text));
    CAPTURE(day.iso());
    REQUIRE(written == std::to_string(day.t_ms()));
    REQUIRE(date(day.iso()) == day); // and write_iso's digits read back
  }
  for (const auto* iso : {"0001-01-01", "1969-12-31", "1970-01-01", "1970-01-02", "9999-12-31"}) {
    char text[20];
    CAPTURE(std::string_view(iso));
    CHECK(std::string(text, date(iso).write_t_ms(text)) == std::to_string(date(iso).t_ms()));
  }
}

TEST_CASE("domain::Date::containing_instant") {
  const Date day = date("2024-01-02");
  const std::int64_t t = 1704124800000;
  CHECK(Date::containing_instant(t) == day);
  CHECK(Date::containing_instant(t + 86'400'000 - 1) == day);            // 23:59:59.999 UTC+8
  CHECK(Date::containing_instant(t - 1) == date("2024-01-01"));          // just before midnight
  CHECK(Date::containing_instant(t + 86'400'000) == date("2024-01-03")); // next midnight
  CHECK(Date::containing_instant(1704153600000) == day);                 // 2024-01-02T00:00Z
  CHECK(Date::containing_instant(0) == date("1970-01-01"));              // 08:00 in Beijing
  CHECK(Date::containing_instant(-28800000) == date("1970-01-01"));
  CHECK(Date::containing_instant(-28800001) == date("1969-12-31")); // floor, not truncation
}

TEST_CASE("domain::Date::minus_years") {
  const struct {
    const char* from;
    int years;
    const char* expected;
  } table[] = {
      {"2025-10-23", 2, "2023-10-23"},
      {"2025-10-23", 5, "2020-10-23"},
      {"2024-02-29", 2, "2022-02-28"}, // D6: 29 February falls back to 28 February
      {"2024-02-29", 1, "2023-02-28"},
      {"2024-02-29", 4, "2020-02-29"}, // a leap year back keeps the 29th
      {"2024-03-01", 1, "2023-03-01"},
      {"2024-12-31", 2, "2022-12-31"},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.from));
    CAPTURE(row.years);
    CHECK(date(row.from).minus_years(row.years).iso() == row.expected);
  }
}

TEST_CASE("domain::Date store form and arithmetic") {
  SUBCASE("yyyymmdd round trip") {
    CHECK(date("2024-01-02").yyyymmdd() == 20240102);
    CHECK(Date::from_yyyymmdd(20240102) == date("2024-01-02"));
    CHECK(Date::from_yyyymmdd(19991231) == date("1999-12-31"));
    CHECK_FALSE(Date::from_yyyymmdd(20230229).has_value());
    CHECK_FALSE(Date::from_yyyymmdd(20241301).has_value());
    CHECK_FALSE(Date::from_yyyymmdd(-1).has_value());
  }

  SUBCASE("from_ymd rejects unreal dates") {
    CHECK(Date::from_ymd(2024, 2, 29).has_value());
    CHECK_FALSE(Date::from_ymd(2023, 2, 29).has_value());
    CHECK_FALSE(Date::from_ymd(2024, 4, 31).has_value());
  }

  SUBCASE("plus_days crosses months and years") {
    CHECK(date("2024-02-28").plus_days(1).iso() == "2024-02-29");
    CHECK(date("2024-02-29").plus_days(1).iso() == "2024-03-01");
    CHECK(date("2024-12-31").plus_days(1).iso() == "2025-01-01");
    CHECK(date("2024-01-01").plus_days(-1).iso() == "2023-12-31");
  }

  SUBCASE("write_iso writes exactly ten characters") {
    char buffer[12] = "xxxxxxxxxxx";
    date("0999-01-05").write_iso(buffer);
    CHECK(std::string(buffer, 10) == "0999-01-05");
    CHECK(buffer[10] == 'x');
  }

  SUBCASE("dates order by time") {
    CHECK(date("2023-12-31") < date("2024-01-01"));
    CHECK(date("2024-01-02") == date("2024-01-02"));
    CHECK(date("2024-02-01") > date("2024-01-31"));
  }
}

TEST_CASE("domain::parse_optional_iso_date: absent is nullopt, present parses as parse_iso_date") {
  const auto absent = domain::parse_optional_iso_date(std::nullopt, "--from");
  REQUIRE(absent);
  CHECK_FALSE(absent->has_value());
  const auto present = domain::parse_optional_iso_date(std::string("2024-02-29"), "--from");
  REQUIRE(present);
  CHECK((*present)->iso() == "2024-02-29");
  const auto bad = domain::parse_optional_iso_date(std::string("2023-02-29"), "--to");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message == domain::parse_iso_date("2023-02-29", "--to").error().message);
}
