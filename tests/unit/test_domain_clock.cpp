#include "testutil.hpp"

#include "core/domain/clock.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ashare;

TEST_CASE("domain::parse_instant and date_utc8: ASHARE_NOW's instants") {
  const struct {
    const char* text;
    const char* date_utc8; // "" when refused
  } k_cases[] = {
    {"2024-02-19T16:00:00+08:00", "2024-02-19"},
    {"2024-02-18T16:30:00Z", "2024-02-19"}, // 00:30 at UTC+8
    {"2024-02-18T15:59:59.999Z", "2024-02-18"},
    {"2024-02-18T23:00:00-05:00", "2024-02-19"},
    {"2024-02-19T16:00:00", ""},       // no offset
    {"2024-02-30T16:00:00Z", ""},      // not a date
    {"2024-02-19 16:00:00+08:00", ""}, // a space, not T
    {"2024-02-19T24:00:00Z", ""},
    {"2024-02-19T16:00:00+8", ""},
    {"yesterday", ""},
  };
  for (const auto& c : k_cases) {
    CAPTURE(c.text);
    const auto instant = domain::parse_instant(c.text, "ASHARE_NOW");
    REQUIRE(static_cast<bool>(instant) == (std::string(c.date_utc8) != ""));
    if (instant) {
      CHECK(domain::date_utc8(*instant).iso() == c.date_utc8);
    }
  }
  CHECK(domain::parse_instant("x", "ASHARE_NOW").error().message
        == "invalid ASHARE_NOW \"x\": expected an ISO 8601 instant with an offset, e.g. "
           "2024-02-19T16:00:00+08:00");
  CHECK(!domain::current_instant(std::string_view("bad")));
  CHECK(static_cast<bool>(domain::current_instant(std::nullopt)));
}
