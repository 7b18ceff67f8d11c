// D6 plans and SPEC bars rule 8: symbol and limit maxima, the default limit, history measured
// back from as_of, and the order of checks 404/405 -> 401 -> 400 -> 403 -> 402.
#include "fixtures.hpp"

#include <cstdio>
#include <doctest/doctest.h>
#include <fstream>

using namespace bb;
using nlohmann::json;

namespace {

// `count` distinct well-formed symbols: the known ones first, then unknown ones.
std::string symbols(std::size_t count) {
  const std::vector<std::string> known{"600519.SH", "600036.SH", "002594.SZ", "000001.SZ",
                                       "600276.SH"};
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string number = std::to_string(i % 1000);
    const std::string unknown = "300" + std::string(3 - number.size(), '0') + number + ".SZ";
    out += (out.empty() ? "" : ",") + (i < known.size() ? known[i] : unknown);
  }
  return out;
}

} // namespace

TEST_CASE("D6: maximum symbols per request") {
  const auto target = [](std::size_t count) {
    return bars_target("2024-01-02", "2024-01-03", "symbol=" + symbols(count));
  };
  CHECK(get(target(1), shared().free.plaintext).status == 200);
  check_error(get(target(2), shared().free.plaintext), 403, "PLAN_LIMIT");
  const auto five = get(target(5), shared().basic.plaintext);
  REQUIRE(five.status == 200);
  CHECK(five.json()["resultsCount"] == 5);
  check_error(get(target(6), shared().basic.plaintext), 403, "PLAN_LIMIT");
  const auto twenty = get(target(20), shared().pro.plaintext);
  REQUIRE(twenty.status == 200);
  CHECK(twenty.json()["resultsCount"] == 20);
  CHECK(twenty.json()["status"] == "PARTIAL");
  check_error(get(target(21), shared().pro.plaintext), 403, "PLAN_LIMIT");
}

TEST_CASE("D6 / D4: limit above the plan maximum is PLAN_LIMIT, above 5000 INVALID_PARAMETER") {
  const auto target = [](const std::string& limit) {
    return bars_target("2024-01-02", "2024-01-03", "symbol=600519.SH&limit=" + limit);
  };
  CHECK(get(target("500"), shared().free.plaintext).status == 200);
  check_error(get(target("501"), shared().free.plaintext), 403, "PLAN_LIMIT");
  check_error(get(target("5000"), shared().free.plaintext), 403, "PLAN_LIMIT");
  check_error(get(target("5001"), shared().free.plaintext), 400, "INVALID_PARAMETER");
  for (const auto* key : {&shared().basic, &shared().pro}) {
    CHECK(get(target("5000"), key->plaintext).status == 200);
    check_error(get(target("5001"), key->plaintext), 400, "INVALID_PARAMETER");
  }
}

TEST_CASE("D4 / D6: the default limit is the plan maximum") {
  // 609001.SH has a bar on every calendar day from 2023-10-23 to 2025-10-23: 732 bars.
  const auto target = bars_target("2023-10-23", "2025-10-23", "symbol=609001.SH");
  const auto free = get(target, shared().free.plaintext);
  REQUIRE(free.status == 200);
  const auto body = free.json();
  CHECK(body["resultsCount"] == 500);
  CHECK(body["ohlc"].back()["trade_date"] == plus_days("2023-10-23", 499));
  REQUIRE(body.contains("next_url"));
  CHECK(body["next_url"]
        == bars_target(plus_days("2023-10-23", 500), "2025-10-23", "symbol=609001.SH"));
  const auto rest = get(body["next_url"].get<std::string>(), shared().free.plaintext);
  REQUIRE(rest.status == 200);
  CHECK(rest.json()["resultsCount"] == 232);
  CHECK_FALSE(rest.json().contains("next_url"));

  for (const auto* key : {&shared().basic, &shared().pro}) {
    const auto all = get(target, key->plaintext);
    REQUIRE(all.status == 200);
    CHECK(all.json()["resultsCount"] == 732);
    CHECK_FALSE(all.json().contains("next_url"));
  }
}

TEST_CASE("SPEC bars rule 8 / D6: history reachable, measured back from as_of") {
  // as_of is 2025-10-23: Free reaches back to 2023-10-23, Basic to 2020-10-23, Pro everything.
  const auto from = [](const std::string& date, const std::string& symbol = "600519.SH") {
    return bars_target(date, "2025-10-23", "symbol=" + symbol + "&limit=1");
  };
  CHECK(get(from("2023-10-23"), shared().free.plaintext).status == 200);
  const auto early = get(from("2023-10-22"), shared().free.plaintext);
  check_error(early, 403, "PLAN_LIMIT");
  CHECK(early.json()["error"]["message"].get<std::string>().find("2023-10-23")
        != std::string::npos);

  const auto basic_ok = get(from("2020-10-23", "000001.SZ"), shared().basic.plaintext);
  REQUIRE(basic_ok.status == 200);
  CHECK(basic_ok.json()["ohlc"][0]["trade_date"] == "2020-10-23");
  check_error(get(from("2020-10-22", "000001.SZ"), shared().basic.plaintext), 403, "PLAN_LIMIT");
  check_error(get(bars_target("2020-10-22", "2025-10-23", "symbol=000001.SZ,600276.SH"),
                  shared().basic.plaintext),
              403, "PLAN_LIMIT");

  const auto pro = get(from("1990-01-01", "000001.SZ"), shared().pro.plaintext);
  REQUIRE(pro.status == 200);
  CHECK(pro.json()["ohlc"][0]["trade_date"] == "2020-01-02");
  CHECK(get(from("0001-01-01"), shared().pro.plaintext).status == 200);
}

TEST_CASE("D6: 29 February as_of falls back to 28 February") {
  TestStore store;
  const auto path = store.dir() / "leap.csv";
  {
    std::ofstream out(path);
    out << "symbol,trade_date,open,high,low,close,volume,turnover\n";
    for (const std::string day : {"2022-02-25", "2022-02-28", "2022-03-01", "2024-02-29"}) {
      out << "900003.SZ," << day << ",10,12,9,11,100,1100\n";
    }
  }
  store.import({path});
  const auto free = store.create_key("free");
  ServerProcess server(store);
  const auto target = [](const std::string& date) {
    return bars_target(date, "2024-02-29", "symbol=900003.SZ");
  };
  const auto ok = request(server.port(), target("2022-02-28"), free.plaintext);
  REQUIRE(ok.status == 200);
  CHECK(ok.json()["meta"]["as_of"] == "2024-02-29");
  CHECK(dates_of(ok.json()["ohlc"])
        == std::vector<std::string>{"2022-02-28", "2022-03-01", "2024-02-29"});
  check_error(request(server.port(), target("2022-02-27"), free.plaintext), 403, "PLAN_LIMIT");
}

TEST_CASE("D6: check order 404/405, then 401, then 400, then 403, then 402") {
  const auto port = shared().port();
  const auto invalid = bars_target("2024-01-05", "2024-01-04", "symbol=600519.SH"); // from > to

  SUBCASE("404 and 405 before 401") {
    check_error(request(port, "/v1/ohlc/range/1/day/2024-01-02", std::nullopt), 404, "NOT_FOUND");
    check_error(request(port, invalid, std::nullopt, "DELETE"), 405, "METHOD_NOT_ALLOWED");
  }
  SUBCASE("401 before 400") {
    check_error(request(port, invalid, std::nullopt), 401, "UNAUTHORIZED");
    check_error(request(port, "/v1/ohlc/range/2/day/x/y?symbol=bad", "ask_wrong"), 401,
                "UNAUTHORIZED");
  }
  SUBCASE("400 before 403") {
    const auto& free = shared().free.plaintext;
    // Two symbols (403 for Free) and from > to (400).
    check_error(
        request(port, bars_target("2024-01-05", "2024-01-04", "symbol=600519.SH,600036.SH"), free),
        400, "INVALID_PARAMETER");
    // Too far back (403) and a bad sort (400).
    check_error(
        request(port, bars_target("2010-01-04", "2024-01-04", "symbol=600519.SH&sort=up"), free),
        400, "INVALID_PARAMETER");
    // limit above the plan (403) and a malformed symbol (400).
    check_error(request(port,
                        bars_target("2024-01-02", "2024-01-04", "symbol=600519.SH,bad&limit=501"),
                        free),
                400, "INVALID_SYMBOL");
    // An unknown single symbol (400) too far back (403).
    check_error(request(port, bars_target("2010-01-04", "2024-01-04", "symbol=000002.SZ"), free),
                400, "INVALID_SYMBOL");
    // An unsupported interval (400) with too many symbols (403).
    check_error(
        request(port, "/v1/ohlc/range/1/week/2024-01-02/2024-01-04?symbol=" + symbols(3), free),
        400, "UNSUPPORTED_INTERVAL");
  }
  SUBCASE("403 before 402") {
    const auto broke = shared().store.create_key("free", 0, "broke").plaintext;
    auto reply =
        request(port, bars_target("2024-01-02", "2024-01-04", "symbol=600519.SH,600036.SH"), broke);
    check_error(reply, 403, "PLAN_LIMIT");
    CHECK(reply.header("X-Credits-Remaining") == "0");
    reply = request(port, bars_target("2024-01-02", "2024-01-04", "symbol=600519.SH"), broke);
    check_error(reply, 402, "INSUFFICIENT_CREDITS");
    CHECK(reply.header("X-Credits-Remaining") == "0");
  }
}
