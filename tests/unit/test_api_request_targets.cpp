// Typed requests and their targets (issue 10): to_target() is the exact inverse of parsing, so
// that what the CLI, next_url and the remote-mode cache send is what the API parses.
#include "core/api/bars_request.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/typed_request.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ashare;

namespace {

// Return the path and the query of `target`, split at '?'.
std::pair<std::string, std::string> split_target(const std::string& target) {
  const auto question = target.find('?');
  REQUIRE(question != std::string::npos);
  return {target.substr(0, question), target.substr(question + 1)};
}

api::BarsRequest parse_bars(const std::string& target) {
  const auto [path, query] = split_target(target);
  const std::string prefix = "/v1/ohlc/range/";
  REQUIRE(path.starts_with(prefix));
  std::vector<std::string> segments;
  std::size_t start = prefix.size();
  while (true) {
    const auto slash = path.find('/', start);
    segments.push_back(path.substr(start, slash == std::string::npos ? slash : slash - start));
    if (slash == std::string::npos) {
      break;
    }
    start = slash + 1;
  }
  REQUIRE(segments.size() == 4);
  auto parsed = api::parse_bars_request({segments[0], segments[1], segments[2], segments[3]},
                                        api::QueryParams::parse(query));
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  return std::move(*parsed);
}

api::IndicatorRequest parse_indicator(query::Indicator indicator, const std::string& query) {
  auto parsed = api::parse_indicator_request(indicator, api::QueryParams::parse(query));
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  return std::move(*parsed);
}

domain::Date test_date(int year, unsigned month, unsigned day) {
  return domain::Date::from_ymd(year, month, day).value();
}

} // namespace

TEST_CASE("api::BarsRequest::to_target: request -> target -> request") {
  struct Case {
    const char* sent;      // what a client sent
    const char* canonical; // to_target() of what it parses to
  };
  const Case cases[] = {
      {"/v1/ohlc/range/1/day/2024-01-02/2024-01-31?symbol=600519.sh",
       "/v1/ohlc/range/1/day/2024-01-02/2024-01-31?symbol=600519.SH&sort=asc"},
      {"/v1/ohlc/range/1/day/2024-01-02/2024-01-31?symbol=600519.SH&sort=asc&adjusted=true",
       "/v1/ohlc/range/1/day/2024-01-02/2024-01-31?symbol=600519.SH&sort=asc"},
      {"/v1/ohlc/range/1/day/2024-06-14/2024-06-21?include=SUMMARY&limit=3&sort=Desc"
       "&adjusted=FALSE&symbol=600519.SH,%20000001.sz&x=1",
       "/v1/ohlc/range/1/day/2024-06-14/2024-06-21?symbol=600519.SH%2C000001.SZ&adjusted=false"
       "&sort=desc&limit=3&include=summary"},
      {"/v1/ohlc/range/1/day/2024-06-14/2024-06-14?symbol=430047.BJ&adjusted=0&limit=5000",
       "/v1/ohlc/range/1/day/2024-06-14/2024-06-14?symbol=430047.BJ&adjusted=false&sort=asc"
       "&limit=5000"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.sent);
    const auto request = parse_bars(c.sent);
    CHECK(request.to_target() == c.canonical);
    const auto again = parse_bars(request.to_target());
    CHECK(api::same_request(again, request));
    CHECK(again.to_target() == request.to_target());
  }
}

TEST_CASE("D8: next_url keeps the request as sent, with the window moved past the last bar") {
  const auto asc = parse_bars(
      "/v1/ohlc/range/1/day/2024-01-02/2024-01-31?limit=2&x=1&symbol=600519.SH,000001.SZ");
  CHECK(api::next_url(asc, "000001.SZ", test_date(2024, 1, 3))
        == "/v1/ohlc/range/1/day/2024-01-04/2024-01-31?limit=2&x=1&symbol=000001.SZ");
  const auto desc =
      parse_bars("/v1/ohlc/range/1/day/2024-01-02/2024-01-31?sort=desc&limit=2&symbol=600519.SH");
  CHECK(api::next_url(desc, "600519.SH", test_date(2024, 1, 25))
        == "/v1/ohlc/range/1/day/2024-01-02/2024-01-24?sort=desc&limit=2&symbol=600519.SH");
  // A next_url parses to the same request but for its window.
  auto next = parse_bars(api::next_url(desc, "600519.SH", test_date(2024, 1, 25)));
  CHECK(next.query.to == test_date(2024, 1, 24));
  next.query.to = desc.query.to;
  CHECK(api::same_request(next, desc));
}

TEST_CASE("api::IndicatorRequest::to_target: request -> target -> request") {
  using query::Indicator;
  struct Case {
    Indicator indicator;
    const char* sent;
    const char* canonical;
  };
  const Case cases[] = {
      {Indicator::sma, "symbol=600519.sh", "/v1/indicators/sma?symbol=600519.SH"},
      {Indicator::sma, "symbol=600519.SH&window=50&order=desc&series_type=close&timespan=day",
       "/v1/indicators/sma?symbol=600519.SH"},
      {Indicator::rsi, "symbol=600519.SH&window=50",
       "/v1/indicators/rsi?symbol=600519.SH&window=50"},
      {Indicator::ema,
       "timestamp.lt=1718812800001&timestamp.lte=2024-06-21&timestamp.gt=1718553600000"
       "&timestamp.gte=2024-06-03&timestamp=1718760000000&limit=7&order=ASC"
       "&expand_underlying=1&series_type=High&window=10&adjusted=false&symbol=600519.SH,600036.SH",
       "/v1/indicators/ema?symbol=600519.SH%2C600036.SH&adjusted=false&window=10"
       "&series_type=high&expand_underlying=true&order=asc&limit=7&timestamp=2024-06-19"
       "&timestamp.gte=2024-06-03&timestamp.gt=2024-06-17&timestamp.lte=2024-06-21"
       "&timestamp.lt=1718812800001"},
      {Indicator::sma, "symbol=600519.SH&timestamp.gte=-86400000",
       "/v1/indicators/sma?symbol=600519.SH&timestamp.gte=-86400000"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.sent);
    const auto request = parse_indicator(c.indicator, c.sent);
    CHECK(request.to_target() == c.canonical);
    const auto query = request.to_target().substr(request.to_target().find('?') + 1);
    const auto again = parse_indicator(c.indicator, query);
    CHECK(again == request);
    CHECK(again.lower_bounds() == request.lower_bounds());
  }
}

TEST_CASE("issue 31: next_request is what its next_url parses to") {
  SUBCASE("bars, from the command line's requests, ascending and descending") {
    for (const char* sent :
         {"/v1/ohlc/range/1/day/2024-01-02/2024-01-31?symbol=600519.SH,000001.SZ&sort=asc&limit=2",
          "/v1/ohlc/range/1/day/2024-01-02/2024-01-31?symbol=600519.SH&adjusted=false&sort=desc"
          "&limit=3&include=summary"}) {
      CAPTURE(sent);
      const auto request = parse_bars(parse_bars(sent).to_target());
      for (const auto& item : request.query.symbols) {
        const std::string symbol = item.str();
        const auto next = api::next_request(request, symbol, test_date(2024, 1, 10));
        const auto parsed = parse_bars(api::next_url(request, symbol, test_date(2024, 1, 10)));
        CHECK(api::same_request(next, parsed));
        CHECK(next.to_target() == parsed.to_target());
      }
    }
  }
  SUBCASE("indicators: the range moved past the last value, the plan's clip left to the answer") {
    using query::Indicator;
    for (const auto& [indicator, sent] :
         {std::pair{Indicator::sma, "symbol=600519.SH,600036.SH&limit=5"},
          std::pair{Indicator::macd, "symbol=600519.SH&order=asc&timestamp.gte=2024-06-03&limit=2"},
          std::pair{Indicator::kdj, "symbol=600519.SH&n=5&timestamp.lte=2024-06-21&limit=3"}}) {
      CAPTURE(sent);
      auto request = parse_indicator(indicator, sent);
      request.query.filter.clip_gte = 0; // as a Free plan's answer sets it
      const auto next = api::next_request(request, "600519.SH", 1718553600000);
      const auto target = api::next_url(request, "600519.SH", 1718553600000);
      const auto parsed = parse_indicator(indicator, target.substr(target.find('?') + 1));
      CHECK(next == parsed);
    }
  }
}

TEST_CASE("api::IndicatorRequest::to_target: the indicators' own parameters (D13)") {
  using query::Indicator;
  struct Case {
    Indicator indicator;
    const char* sent;
    const char* canonical;
  };
  const Case cases[] = {
      {Indicator::rsi, "symbol=600519.SH&window=14", "/v1/indicators/rsi?symbol=600519.SH"},
      {Indicator::macd, "symbol=600519.SH&signal=9&slow=26&fast=12",
       "/v1/indicators/macd?symbol=600519.SH"},
      {Indicator::macd, "symbol=600519.SH&signal=5&slow=30&fast=6",
       "/v1/indicators/macd?symbol=600519.SH&fast=6&slow=30&signal=5"},
      {Indicator::bbands, "symbol=600519.SH&k=2&window=20",
       "/v1/indicators/bbands?symbol=600519.SH"},
      {Indicator::bbands, "symbol=600519.SH&k=2.50&window=10",
       "/v1/indicators/bbands?symbol=600519.SH&window=10&k=2.5"},
      {Indicator::atr, "symbol=600519.SH&window=14", "/v1/indicators/atr?symbol=600519.SH"},
      {Indicator::atr, "symbol=600519.SH&window=20",
       "/v1/indicators/atr?symbol=600519.SH&window=20"},
      {Indicator::kdj, "symbol=600519.SH&m2=3&m1=4&n=9",
       "/v1/indicators/kdj?symbol=600519.SH&m1=4"},
      {Indicator::kdj, "symbol=600519.SH&m2=2&m1=2&n=5",
       "/v1/indicators/kdj?symbol=600519.SH&n=5&m1=2&m2=2"},
  };
  for (const auto& c : cases) {
    const std::string sent = c.sent;
    CAPTURE(sent);
    const auto request = parse_indicator(c.indicator, c.sent);
    CHECK(request.to_target() == c.canonical);
    const auto query = request.to_target().substr(request.to_target().find('?') + 1);
    CHECK(parse_indicator(c.indicator, query) == request);
  }
}

TEST_CASE("api::parse_indicator_params: the first bad parameter, in the API's order (D13)") {
  using query::Indicator;
  struct Case {
    Indicator indicator;
    const char* sent;
    const char* message;
  };
  const Case cases[] = {
      {Indicator::sma, "window=0", "invalid window \"0\": expected an integer from 1 to 5000"},
      {Indicator::bbands, "k=0&window=1",
       "invalid window \"1\": expected an integer from 2 to 5000"},
      {Indicator::bbands, "k=11&window=2",
       "invalid k \"11\": expected a decimal number greater than 0 and at most 10"},
      {Indicator::macd, "signal=0&slow=1&fast=1",
       "invalid fast \"1\": expected an integer from 2 to 5000"},
      {Indicator::macd, "signal=0&slow=1",
       "invalid slow \"1\": expected an integer from 2 to 5000"},
      {Indicator::macd, "signal=0&slow=26&fast=26",
       "invalid fast \"26\": expected less than slow (26)"},
      {Indicator::macd, "signal=0&slow=10",
       "invalid fast \"12\": expected less than slow (10)"},
      {Indicator::macd, "signal=5001",
       "invalid signal \"5001\": expected an integer from 1 to 5000"},
      {Indicator::kdj, "m2=0&m1=0&n=5001",
       "invalid n \"5001\": expected an integer from 1 to 5000"},
      {Indicator::kdj, "m2=0&m1=0", "invalid m1 \"0\": expected an integer from 1 to 5000"},
      {Indicator::kdj, "m2=0", "invalid m2 \"0\": expected an integer from 1 to 5000"},
  };
  for (const auto& c : cases) {
    const std::string sent = c.sent;
    CAPTURE(sent);
    query::IndicatorQuery query;
    const auto status =
      api::parse_indicator_params(c.indicator, api::QueryParams::parse(c.sent), query);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message == c.message);
  }
}

TEST_CASE("api::period_params: each indicator's integer parameters, in the API's order") {
  using query::Indicator;
  const std::pair<Indicator, const char*> cases[] = {
      {Indicator::ema, "window 1-5000 (50)"},
      {Indicator::rsi, "window 1-5000 (14)"},
      {Indicator::sma, "window 1-5000 (50)"},
      {Indicator::macd, "fast 2-5000 (12), slow 2-5000 (26), signal 1-5000 (9)"},
      {Indicator::bbands, "window 2-5000 (20)"},
      {Indicator::atr, "window 1-5000 (14)"},
      {Indicator::kdj, "n 1-5000 (9), m1 1-5000 (3), m2 1-5000 (3)"},
  };
  for (const auto& [indicator, expected] : cases) {
    const std::string name(api::indicator_name(indicator));
    CAPTURE(name);
    std::string described;
    for (const auto& param : api::period_params(indicator)) {
      described += (described.empty() ? "" : ", ") + std::string(param.name) + " "
                   + std::to_string(param.min) + "-" + std::to_string(param.max) + " ("
                   + std::to_string(param.fallback) + ")";
    }
    CHECK(described == expected);
  }
}
