#include "testutil.hpp"

#include "core/api/bars_endpoint.hpp"

#include <doctest/doctest.h>

#include <string>

// The file's names apart from the other files' of a unity build (cmake/Unity.cmake): its
// `using` of auth::Plan would otherwise meet fetch::Plan, which other test files bring in.
namespace test_api_bars_endpoint {

using namespace ashare;
using auth::Plan;
using test::date;

namespace {

api::BarsPath path(const char* multiplier, const char* timespan, const char* from, const char* to) {
  return api::BarsPath{multiplier, timespan, from, to};
}

const api::BarsPath k_good_path{"1", "day", "2024-01-02", "2024-01-31"};

Result<api::BarsRequest> parse(const api::BarsPath& p, const std::string& query) {
  return api::parse_bars_request(p, api::QueryParams::parse(query));
}

void check_error(const Result<api::BarsRequest>& result,
                 ErrorCode code,
                 const std::string& message) {
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == code);
  CHECK(result.error().message == message);
}

// A list of `count` distinct well-formed symbols.
std::string symbol_list(int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    out += (out.empty() ? "" : ",") + std::to_string(600000 + i) + ".SH";
  }
  return out;
}

api::BarsRequest request(const std::string& query, const char* from = "2024-01-02") {
  auto parsed = parse(path("1", "day", from, "2024-12-31"), query);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  return std::move(*parsed);
}

} // namespace

TEST_CASE("api::parse_bars_request: a valid request and its defaults") {
  const auto parsed = parse(k_good_path, "symbol=600519.sh");
  REQUIRE(parsed.ok());
  CHECK(parsed->query.symbols.size() == 1);
  CHECK(parsed->query.symbols[0].str() == "600519.SH");
  CHECK(parsed->query.from == date("2024-01-02"));
  CHECK(parsed->query.to == date("2024-01-31"));
  CHECK(parsed->query.adjusted);                       // default true
  CHECK(parsed->query.sort == domain::SortOrder::asc); // default asc
  CHECK_FALSE(parsed->limit.has_value());              // the plan decides
  CHECK_FALSE(parsed->query.include_summary);

  SUBCASE("every parameter") {
    const auto all =
        parse(k_good_path, "symbol=600519.SH,000001.SZ&adjusted=FALSE&sort=Desc&limit=30"
                           "&include=SUMMARY&unknown=ignored");
    REQUIRE(all.ok());
    CHECK(all->query.symbols.size() == 2);
    CHECK(all->query.symbols[1].str() == "000001.SZ");
    CHECK_FALSE(all->query.adjusted);
    CHECK(all->query.sort == domain::SortOrder::desc);
    CHECK(all->limit == 30);
    CHECK(all->query.include_summary);
    CHECK(all->params.find("unknown") == "ignored"); // kept for next_url
  }
  SUBCASE("from == to is a valid window (SPEC rule 5)") {
    CHECK(parse(path("1", "day", "2024-01-06", "2024-01-06"), "symbol=600519.SH").ok());
  }
}

TEST_CASE("D3: only 1/day is a supported interval") {
  const struct {
    const char* multiplier;
    const char* timespan;
  } table[] = {
      {"2", "day"}, {"1", "week"}, {"01", "day"}, {"x", "day"},  {"1", "DAY"},
      {"1", "Day"}, {"1", "days"}, {"0", "day"},  {"-1", "day"}, {"1 ", "day"},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.multiplier));
    CAPTURE(std::string_view(row.timespan));
    // The interval is checked before anything else: bad dates and no symbol do not matter.
    check_error(parse(path(row.multiplier, row.timespan, "2024-1-02", "bad"), ""),
                ErrorCode::unsupported_interval,
                "unsupported interval \"" + std::string(row.multiplier) + "/" + row.timespan
                    + "\": only 1/day is supported");
  }
}

TEST_CASE("api::parse_bars_request: error precedence") {
  const std::string everything_bad = "symbol=60051.SH&adjusted=maybe&sort=up&limit=0&include=all";

  SUBCASE("from, before to, before the range, before symbol") {
    check_error(parse(path("1", "day", "2024-1-02", "2024-02-30"), everything_bad),
                ErrorCode::invalid_parameter,
                "invalid from \"2024-1-02\": expected a date YYYY-MM-DD");
    check_error(parse(path("1", "day", "2024-01-02", "2024-02-30"), everything_bad),
                ErrorCode::invalid_parameter,
                "invalid to \"2024-02-30\": not a real calendar date");
    check_error(parse(path("1", "day", "2024-01-03", "2024-01-02"), everything_bad),
                ErrorCode::invalid_parameter,
                "invalid range: from \"2024-01-03\" is later than to \"2024-01-02\"");
  }
  SUBCASE("then symbol, then adjusted, sort, limit and include") {
    check_error(parse(k_good_path, everything_bad), ErrorCode::invalid_symbol,
                "invalid symbol \"60051.SH\": expected six digits, a dot and SH, SZ or BJ");
    check_error(parse(k_good_path, "adjusted=maybe&sort=up&limit=0&include=all"),
                ErrorCode::invalid_parameter, "missing parameter \"symbol\"");
    check_error(parse(k_good_path, "symbol=&adjusted=maybe"), ErrorCode::invalid_parameter,
                "missing parameter \"symbol\"");
    check_error(parse(k_good_path, "symbol=600519.SH&adjusted=maybe&sort=up&limit=0&include=all"),
                ErrorCode::invalid_parameter, "invalid adjusted \"maybe\": expected true or false");
    check_error(parse(k_good_path, "symbol=600519.SH&sort=up&limit=0&include=all"),
                ErrorCode::invalid_parameter, "invalid sort \"up\": expected asc or desc");
    check_error(parse(k_good_path, "symbol=600519.SH&limit=0&include=all"),
                ErrorCode::invalid_parameter,
                "invalid limit \"0\": expected an integer from 1 to 5000");
    check_error(parse(k_good_path, "symbol=600519.SH&include=all"), ErrorCode::invalid_parameter,
                "invalid include \"all\": expected summary");
    check_error(parse(k_good_path, "symbol=600519.SH&include="), ErrorCode::invalid_parameter,
                "invalid include \"\": expected summary");
  }
  SUBCASE("limit above 5000 is a parameter error, not a plan limit") {
    check_error(parse(k_good_path, "symbol=600519.SH&limit=5001"), ErrorCode::invalid_parameter,
                "invalid limit \"5001\": expected an integer from 1 to 5000");
  }
  SUBCASE("symbol list errors (D1)") {
    check_error(parse(k_good_path, "symbol=600519.SH,,000001.SZ"), ErrorCode::invalid_parameter,
                "invalid symbol \"600519.SH,,000001.SZ\": empty item in the list");
    check_error(parse(k_good_path, "symbol=600519.SH,600519.sh"), ErrorCode::invalid_parameter,
                "invalid symbol \"600519.SH,600519.sh\": \"600519.SH\" is listed twice");
    check_error(parse(k_good_path, "symbol=600519.SH%2C000001.XX"), ErrorCode::invalid_symbol,
                "invalid symbol \"000001.XX\": expected six digits, a dot and SH, SZ or BJ");
  }
}

TEST_CASE("D6: api::check_bars_plan") {
  const auto as_of = date("2025-10-23");
  const auto check = [&](Plan plan, const api::BarsRequest& r, std::optional<domain::Date> at) {
    return api::check_bars_plan(r, api::Caller{1, plan, false}, at);
  };
  const auto check_limit = [&](Plan plan, const api::BarsRequest& r, const std::string& message) {
    const auto status = check(plan, r, as_of);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().code == ErrorCode::plan_limit);
    CHECK(status.error().message == message);
  };

  SUBCASE("symbols per request: free 1, basic 5, pro 20") {
    CHECK(check(Plan::free, request("symbol=" + symbol_list(1), "2024-01-02"), as_of).ok());
    check_limit(Plan::free, request("symbol=" + symbol_list(2)),
                "too many symbols: 2 requested, at most 1 on the free plan");
    CHECK(check(Plan::basic, request("symbol=" + symbol_list(5)), as_of).ok());
    check_limit(Plan::basic, request("symbol=" + symbol_list(6)),
                "too many symbols: 6 requested, at most 5 on the basic plan");
    CHECK(check(Plan::pro, request("symbol=" + symbol_list(20)), as_of).ok());
    check_limit(Plan::pro, request("symbol=" + symbol_list(21)),
                "too many symbols: 21 requested, at most 20 on the pro plan");
  }
  SUBCASE("limit: free 500, basic and pro 5000") {
    CHECK(check(Plan::free, request("symbol=600519.SH&limit=500"), as_of).ok());
    check_limit(Plan::free, request("symbol=600519.SH&limit=501"),
                "limit 501 is above the maximum of 500 on the free plan");
    CHECK(check(Plan::basic, request("symbol=600519.SH&limit=5000"), as_of).ok());
    CHECK(check(Plan::pro, request("symbol=600519.SH&limit=5000"), as_of).ok());
    CHECK(check(Plan::free, request("symbol=600519.SH"), as_of).ok()); // omitted: plan default
  }
  SUBCASE("history, measured back from as_of") {
    CHECK(check(Plan::free, request("symbol=600519.SH", "2023-10-23"), as_of).ok());
    check_limit(Plan::free, request("symbol=600519.SH", "2023-10-22"),
                "from \"2023-10-22\" is earlier than 2023-10-23, the earliest date reachable on "
                "the free plan (as_of 2025-10-23)");
    CHECK(check(Plan::basic, request("symbol=600519.SH", "2020-10-23"), as_of).ok());
    check_limit(Plan::basic, request("symbol=600519.SH", "2020-10-22"),
                "from \"2020-10-22\" is earlier than 2020-10-23, the earliest date reachable on "
                "the basic plan (as_of 2025-10-23)");
    CHECK(check(Plan::pro, request("symbol=600519.SH", "1990-12-19"), as_of).ok());
    // An empty store has no as_of: nothing to measure from.
    CHECK(check(Plan::free, request("symbol=600519.SH", "1990-12-19"), std::nullopt).ok());
  }
  SUBCASE("29 February as_of") {
    const auto leap = date("2024-02-29");
    CHECK(check(Plan::free, request("symbol=600519.SH", "2022-02-28"), leap).ok());
    const auto status = check(Plan::free, request("symbol=600519.SH", "2022-02-27"), leap);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message
          == "from \"2022-02-27\" is earlier than 2022-02-28, the earliest date reachable on the "
             "free plan (as_of 2024-02-29)");
  }
  SUBCASE("order: symbols, then limit, then history") {
    check_limit(Plan::free, request("symbol=" + symbol_list(2) + "&limit=501", "1990-12-19"),
                "too many symbols: 2 requested, at most 1 on the free plan");
    check_limit(Plan::free, request("symbol=600519.SH&limit=501", "1990-12-19"),
                "limit 501 is above the maximum of 500 on the free plan");
  }
}

} // namespace test_api_bars_endpoint
