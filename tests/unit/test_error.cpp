#include "core/error.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace ashare;

TEST_CASE("error table: every ErrorCode has one row, in enumerator order") {
  // SPEC "Errors" (400..500), D10 (404, 405), the CLI's INVALID_INPUT for rejected files and
  // D14's RATE_LIMITED and D15's SERVICE_UNAVAILABLE.
  struct Row {
    ErrorCode code;
    const char* wire_name;
    int http_status;
  };
  const Row expected[] = {
      {ErrorCode::invalid_symbol, "INVALID_SYMBOL", 400},
      {ErrorCode::invalid_parameter, "INVALID_PARAMETER", 400},
      {ErrorCode::unsupported_interval, "UNSUPPORTED_INTERVAL", 400},
      {ErrorCode::unauthorized, "UNAUTHORIZED", 401},
      {ErrorCode::insufficient_credits, "INSUFFICIENT_CREDITS", 402},
      {ErrorCode::plan_limit, "PLAN_LIMIT", 403},
      {ErrorCode::not_found, "NOT_FOUND", 404},
      {ErrorCode::method_not_allowed, "METHOD_NOT_ALLOWED", 405},
      {ErrorCode::internal, "INTERNAL_ERROR", 500},
      {ErrorCode::invalid_input, "INVALID_INPUT", 400},
      {ErrorCode::rate_limited, "RATE_LIMITED", 429},
      {ErrorCode::service_unavailable, "SERVICE_UNAVAILABLE", 503},
  };
  const auto table = error_table();
  // service_unavailable is the last enumerator: one row per enumerator, none missing, none extra.
  REQUIRE(table.size() == static_cast<std::size_t>(ErrorCode::service_unavailable) + 1);
  REQUIRE(table.size() == std::size(expected));

  for (std::size_t i = 0; i < table.size(); ++i) {
    CAPTURE(i);
    CHECK(static_cast<std::size_t>(table[i].code) == i);
    CHECK(table[i].code == expected[i].code);
    CHECK(table[i].wire_name == expected[i].wire_name);
    CHECK(table[i].http_status == expected[i].http_status);
    CHECK(&error_info(expected[i].code) == &table[i]);
  }

  SUBCASE("wire names are distinct") {
    std::set<std::string> names;
    for (const auto& row : table) {
      names.emplace(row.wire_name);
    }
    CHECK(names.size() == table.size());
  }

  SUBCASE("CLI exit statuses: 4 for authentication, credits, plan and rate, 3 for an unreachable "
          "store, 1 otherwise") {
    for (const auto& row : table) {
      CAPTURE(row.wire_name);
      const bool refused = row.code == ErrorCode::unauthorized
                           || row.code == ErrorCode::insufficient_credits
                           || row.code == ErrorCode::plan_limit
                           || row.code == ErrorCode::rate_limited;
      const bool unreachable = row.code == ErrorCode::service_unavailable;
      CHECK(row.exit_status == (refused ? 4 : unreachable ? 3 : 1));
    }
  }
}

TEST_CASE("Result") {
  SUBCASE("holds a value") {
    Result<int> result(42);
    CHECK(result.ok());
    CHECK(static_cast<bool>(result));
    CHECK(*result == 42);
    CHECK(result.value() == 42);
  }

  SUBCASE("holds an error") {
    Result<int> result(make_error(ErrorCode::plan_limit, "limit 501 is too high"));
    CHECK_FALSE(result.ok());
    CHECK_FALSE(static_cast<bool>(result));
    CHECK(result.error().code == ErrorCode::plan_limit);
    CHECK(result.error().message == "limit 501 is too high");
  }

  SUBCASE("moves its value out") {
    Result<std::string> result(std::string("600519.SH"));
    CHECK(result->size() == 9);
    const std::string taken = std::move(result).value();
    CHECK(taken == "600519.SH");
  }

  SUBCASE("Status is Ok or an Error") {
    const Status ok = Ok{};
    const Status failed = make_error(ErrorCode::internal, "boom");
    CHECK(ok.ok());
    CHECK_FALSE(failed.ok());
    CHECK(failed.error().code == ErrorCode::internal);
  }
}
