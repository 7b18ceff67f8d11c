#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/api/dispatch.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

// The file's names apart from the other files' of a unity build (cmake/Unity.cmake): its
// `using` of auth::Plan would otherwise meet fetch::Plan, which other test files bring in.
namespace test_api_dispatch {

using namespace ashare;
using auth::Plan;
using nlohmann::json;

namespace {

// The bars: test::k_two_symbols_csv (as_of 2024-01-08; 600519.SH: five sessions, factor 1 -> 2
// on 2024-01-05; 000001.SZ: two).
constexpr const char* k_bars_path = "/v1/ohlc/range/1/day/2024-01-01/2024-01-31";

// A data store and a key store (test::StoreBackend), and the Services `serve` would build over
// them.
struct Server {
  test::StoreBackend stores;
  std::unique_ptr<api::Services> services = stores.services();

  Server() {
    REQUIRE(
        stores.import_text(test::k_two_symbols_csv, test::import_options(false, "unit")).committed);
  }

  test::TestKey key(Plan plan, std::optional<std::int64_t> credits) {
    return test::create_key(*stores.open_keys(), plan, credits);
  }

  std::optional<std::int64_t> balance(const test::TestKey& key) {
    return stores.open_keys()->load_balance(key.id);
  }

  api::Response call(const std::string& method,
                     const std::string& path,
                     const std::string& query,
                     const std::optional<std::string>& authorization) {
    return api::dispatch(api::Request{method, path, query, authorization}, *services);
  }

  api::Response get(const std::string& path, const std::string& query, const test::TestKey& key) {
    return call("GET", path, query, "Bearer " + key.plaintext);
  }
};

std::vector<std::string> headers(const api::Response& response, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& [key, value] : response.headers) {
    if (key == name) {
      out.push_back(value);
    }
  }
  return out;
}

std::optional<std::string> header(const api::Response& response, const std::string& name) {
  const auto all = headers(response, name);
  REQUIRE(all.size() <= 1);
  return all.empty() ? std::nullopt : std::optional(all[0]);
}

json body(const api::Response& response) {
  return json::parse(response.body.str());
}

void check_error(const api::Response& response, int status, const char* code) {
  CHECK(response.status == status);
  CHECK(response.content_type == "application/json");
  const auto parsed = body(response);
  CHECK(parsed.size() == 1);
  CHECK(parsed["error"]["code"] == code);
  CHECK(parsed["error"]["message"].is_string());
  CHECK(header(response, "X-Request-Id").has_value());
}

std::vector<std::string> dates(const json& ohlc) {
  std::vector<std::string> out;
  for (const auto& bar : ohlc) {
    out.push_back(bar["trade_date"].get<std::string>());
  }
  return out;
}

} // namespace

TEST_CASE("D10: an unknown route is 404 NOT_FOUND, whatever the method, before authentication") {
  Server server;
  const char* paths[] = {
      "/v1/nope",
      "/",
      "",
      "/v1/ohlc/range/1/day/2024-01-01/2024-01-31/", // a trailing slash makes a route unknown
      "/healthz/",
      "/v1/openapi.json/",
      "/v1/ohlc/range/1/day/2024-01-01",
      "/v1/ohlc/range/1/day/2024-01-01/2024-01-31/x",
      "/v1/ohlc/range//day/2024-01-01/2024-01-31",
      "/V1/openapi.json",
      "/v2/ohlc/range/1/day/2024-01-01/2024-01-31",
  };
  for (const char* path : paths) {
    for (const char* method : {"GET", "POST", "HEAD"}) {
      CAPTURE(std::string_view(path));
      CAPTURE(std::string_view(method));
      const auto response = server.call(method, path, "", std::nullopt);
      check_error(response, 404, "NOT_FOUND");
      // HEAD is GET without a body: GET's message, so GET's Content-Length (issue 9).
      const std::string named = std::string_view(method) == "HEAD" ? "GET" : method;
      CHECK(body(response)["error"]["message"] == "no route " + named + " " + std::string(path));
      CHECK_FALSE(header(response, "WWW-Authenticate").has_value());
      CHECK_FALSE(header(response, "Allow").has_value());
    }
  }
}

TEST_CASE("D10: another method on a known route is 405 with Allow, before authentication") {
  Server server;
  for (const char* path : {k_bars_path, "/healthz", "/v1/openapi.json"}) {
    for (const char* method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "get"}) {
      CAPTURE(std::string_view(path));
      CAPTURE(std::string_view(method));
      const auto response = server.call(method, path, "symbol=600519.SH", std::nullopt);
      check_error(response, 405, "METHOD_NOT_ALLOWED");
      CHECK(header(response, "Allow") == "GET, HEAD");
      CHECK(body(response)["error"]["message"]
            == "method " + std::string(method) + " is not allowed on " + path
                   + ": use GET or HEAD");
      CHECK_FALSE(header(response, "WWW-Authenticate").has_value());
    }
  }
}

TEST_CASE("D5: 401 UNAUTHORIZED with WWW-Authenticate: Bearer") {
  Server server;
  const auto key = server.key(Plan::pro, std::nullopt);
  const auto revoked = server.key(Plan::pro, 10);
  REQUIRE(server.stores.open_keys()->revoke(revoked.id, "2024-02-01T00:00:00Z"));
  const std::optional<std::string> rejected[] = {
      std::nullopt,
      "Basic " + key.plaintext,
      "Token " + key.plaintext,
      key.plaintext,
      std::string("Bearer ask_not_a_key"),
      "Bearer " + revoked.plaintext,
  };
  for (const auto& authorization : rejected) {
    CAPTURE(authorization.value_or("(none)"));
    // The interval is unsupported too: 401 comes before 400 (D6).
    for (const char* path : {k_bars_path, "/v1/ohlc/range/2/day/2024-01-01/2024-01-31"}) {
      const auto response = server.call("GET", path, "symbol=600519.SH", authorization);
      check_error(response, 401, "UNAUTHORIZED");
      CHECK(header(response, "WWW-Authenticate") == "Bearer");
      CHECK_FALSE(header(response, "X-Credits-Remaining").has_value());
    }
  }
  CHECK(server.balance(revoked) == 10); // nothing charged
  SUBCASE("the scheme word is case-insensitive") {
    CHECK(server.call("GET", k_bars_path, "symbol=600519.SH", "bEARER " + key.plaintext).status
          == 200);
  }
}

TEST_CASE("D5: /healthz and /v1/openapi.json need no key") {
  Server server;
  const auto health = server.call("GET", "/healthz", "", std::nullopt);
  CHECK(health.status == 200);
  CHECK(health.content_type == "application/json");
  CHECK(body(health)
        == json{{"status", "ok"}, {"as_of", "2024-01-08"}, {"schema_version", "2026-05-27"}});
  CHECK(header(health, "X-Request-Id").has_value());

  const auto openapi = server.call("GET", "/v1/openapi.json", "", std::nullopt);
  CHECK(openapi.status == 200);
  const auto document = body(openapi);
  CHECK(document["openapi"].get<std::string>().starts_with("3.1"));
  CHECK(document["info"]["version"] == "2026-05-27");

  SUBCASE("a key, even a bad one, is not looked at") {
    CHECK(server.call("GET", "/healthz", "", std::string("Basic nonsense")).status == 200);
  }
}

TEST_CASE("D10: every response carries a fresh X-Request-Id") {
  Server server;
  const auto key = server.key(Plan::pro, 1);
  std::vector<api::Response> responses{
      server.get(k_bars_path, "symbol=600519.SH", key),          // 200
      server.get(k_bars_path, "symbol=600519.SH", key),          // 402
      server.get(k_bars_path, "symbol=bad", key),                // 400
      server.call("GET", k_bars_path, "", std::nullopt),         // 401
      server.call("POST", k_bars_path, "", std::nullopt),        // 405
      server.call("GET", "/nope", "", std::nullopt),             // 404
      server.call("GET", "/healthz", "", std::nullopt),          // 200
      server.call("HEAD", "/v1/openapi.json", "", std::nullopt), // 200
  };
  const int statuses[] = {200, 402, 400, 401, 405, 404, 200, 200};
  std::set<std::string> ids;
  for (std::size_t i = 0; i < responses.size(); ++i) {
    CAPTURE(i);
    CHECK(responses[i].status == statuses[i]);
    const auto id = header(responses[i], "X-Request-Id");
    REQUIRE(id.has_value());
    CHECK(id->size() == 36);
    CHECK((*id)[14] == '4');
    ids.insert(*id);
  }
  CHECK(ids.size() == responses.size());
  // The bars body repeats it.
  CHECK(body(responses[0])["request_id"] == *header(responses[0], "X-Request-Id"));
}

TEST_CASE("SPEC Daily bars: a single-symbol response") {
  Server server;
  const auto key = server.key(Plan::pro, std::nullopt);

  SUBCASE("adjusted by default, anchored at the latest stored factor (D8)") {
    const auto response =
        server.get("/v1/ohlc/range/1/day/2024-01-02/2024-01-04", "symbol=600519.sh", key);
    REQUIRE(response.status == 200);
    const auto parsed = body(response);
    CHECK(parsed["status"] == "OK");
    CHECK(parsed["symbol"] == "600519.SH"); // canonical echo (D1)
    CHECK(parsed["adjusted"] == true);
    CHECK(parsed["multiplier"] == 1);
    CHECK(parsed["timespan"] == "day");
    CHECK(parsed["from"] == "2024-01-02");
    CHECK(parsed["to"] == "2024-01-04");
    CHECK(parsed["resultsCount"] == 3);
    CHECK(dates(parsed["ohlc"])
          == std::vector<std::string>{"2024-01-02", "2024-01-03", "2024-01-04"});
    CHECK(parsed["ohlc"][0]["close"] == 5.25); // 10.5 * 1 / 2
    CHECK(parsed["ohlc"][0]["factor"] == 1);
    CHECK(parsed["ohlc"][0]["t"] == 1704124800000);
    CHECK(parsed["meta"]
          == json{{"as_of", "2024-01-08"}, {"source", "unit"}, {"schema_version", "2026-05-27"}});
    CHECK_FALSE(parsed.contains("next_url"));
    CHECK_FALSE(header(response, "X-Credits-Remaining").has_value()); // unmetered
  }
  SUBCASE("adjusted=false returns raw prices; summary on request; sort=desc") {
    const auto response =
        server.get(k_bars_path, "symbol=600519.SH&adjusted=0&include=Summary&sort=DESC", key);
    REQUIRE(response.status == 200);
    const auto parsed = body(response);
    CHECK(parsed["adjusted"] == false);
    CHECK(dates(parsed["ohlc"]).front() == "2024-01-08");
    CHECK(parsed["ohlc"][4]["close"] == 10.5);
    CHECK(parsed["summary"]["bars_count"] == 5);
    CHECK(parsed["summary"]["open_first"] == 5.9);  // the latest bar's open (desc)
    CHECK(parsed["summary"]["close_last"] == 10.5); // the earliest bar's close
  }
  SUBCASE("no bars in range: 200 with an empty series (SPEC rule 7)") {
    const auto response =
        server.get("/v1/ohlc/range/1/day/2024-01-06/2024-01-07", "symbol=600519.SH", key);
    REQUIRE(response.status == 200);
    CHECK(body(response)["resultsCount"] == 0);
    CHECK(body(response)["ohlc"] == json::array());
    CHECK(body(response)["status"] == "OK");
  }
  SUBCASE("an unknown single symbol is 400 INVALID_SYMBOL (D1)") {
    const auto response = server.get(k_bars_path, "symbol=000002.SZ", key);
    check_error(response, 400, "INVALID_SYMBOL");
    CHECK(body(response)["error"]["message"] == "unknown symbol \"000002.SZ\"");
  }
  SUBCASE("HEAD answers as GET") {
    const auto response =
        server.call("HEAD", k_bars_path, "symbol=600519.SH", "Bearer " + key.plaintext);
    CHECK(response.status == 200);
  }
}

TEST_CASE("D7: credits on a metered key") {
  Server server;
  const auto key = server.key(Plan::basic, 10);

  SUBCASE("a success costs one credit per symbol served") {
    const auto response = server.get(k_bars_path, "symbol=600519.SH", key);
    REQUIRE(response.status == 200);
    CHECK(header(response, "X-Credits-Remaining") == "9");
    CHECK(body(response)["meta"]["credits_charged"] == 1);
    CHECK(server.balance(key) == 9);

    const auto two = server.get(k_bars_path, "symbol=600519.SH,000001.SZ", key);
    REQUIRE(two.status == 200);
    CHECK(header(two, "X-Credits-Remaining") == "7");
    CHECK(body(two)["meta"]["credits_charged"] == 2);
    CHECK(server.balance(key) == 7);
  }
  SUBCASE("HEAD is charged as GET") {
    const auto response =
        server.call("HEAD", k_bars_path, "symbol=600519.SH", "Bearer " + key.plaintext);
    CHECK(response.status == 200);
    CHECK(header(response, "X-Credits-Remaining") == "9");
    CHECK(server.balance(key) == 9);
  }
  SUBCASE("errors after authentication cost nothing but show the balance") {
    for (const char* query : {"symbol=bad", "symbol=000002.SZ", "symbol=600519.SH&limit=0"}) {
      CAPTURE(std::string_view(query));
      const auto response = server.get(k_bars_path, query, key);
      CHECK(response.status == 400);
      CHECK(header(response, "X-Credits-Remaining") == "10");
    }
    const auto plan =
        server.get("/v1/ohlc/range/1/day/2015-01-01/2024-01-31", "symbol=600519.SH", key);
    CHECK(plan.status == 403);
    CHECK(header(plan, "X-Credits-Remaining") == "10");
    CHECK(server.balance(key) == 10);
  }
  SUBCASE("404 and 405 come before authentication: no credits header") {
    const auto missing = server.call("GET", "/v1/nope", "", "Bearer " + key.plaintext);
    CHECK(missing.status == 404);
    CHECK_FALSE(header(missing, "X-Credits-Remaining").has_value());
    const auto method = server.call("POST", k_bars_path, "", "Bearer " + key.plaintext);
    CHECK(method.status == 405);
    CHECK_FALSE(header(method, "X-Credits-Remaining").has_value());
  }
  SUBCASE("an unmetered key never shows credits") {
    const auto unmetered = server.key(Plan::basic, std::nullopt);
    const auto response = server.get(k_bars_path, "symbol=600519.SH,000001.SZ", unmetered);
    REQUIRE(response.status == 200);
    CHECK_FALSE(body(response)["meta"].contains("credits_charged"));
    CHECK_FALSE(header(response, "X-Credits-Remaining").has_value());
  }
}

TEST_CASE("D7: 402 INSUFFICIENT_CREDITS when the balance is below the cost, nothing charged") {
  Server server;
  SUBCASE("balance 0") {
    const auto key = server.key(Plan::basic, 0);
    const auto response = server.get(k_bars_path, "symbol=600519.SH", key);
    check_error(response, 402, "INSUFFICIENT_CREDITS");
    CHECK(body(response)["error"]["message"]
          == "insufficient credits: this request costs 1, the balance is 0");
    CHECK(header(response, "X-Credits-Remaining") == "0");
    CHECK(server.balance(key) == 0);
  }
  SUBCASE("balance 1, two symbols served") {
    const auto key = server.key(Plan::basic, 1);
    const auto response = server.get(k_bars_path, "symbol=600519.SH,000001.SZ", key);
    check_error(response, 402, "INSUFFICIENT_CREDITS");
    CHECK(body(response)["error"]["message"]
          == "insufficient credits: this request costs 2, the balance is 1");
    CHECK(header(response, "X-Credits-Remaining") == "1");
    CHECK(server.balance(key) == 1);
    // The same key can still afford one symbol.
    CHECK(server.get(k_bars_path, "symbol=000001.SZ", key).status == 200);
    CHECK(server.balance(key) == 0);
  }
}

TEST_CASE("D6: check order 400, then 403, then 402") {
  Server server;
  const auto broke = server.key(Plan::free, 0);
  SUBCASE("400 before 403: a bad parameter on a request over the plan") {
    const auto response = server.get(k_bars_path, "symbol=600519.SH,000001.SZ&sort=up", broke);
    check_error(response, 400, "INVALID_PARAMETER");
  }
  SUBCASE("an unknown single symbol is 400 even on a free key with no credits") {
    check_error(server.get("/v1/ohlc/range/1/day/2015-01-01/2024-01-31", "symbol=000002.SZ", broke),
                400, "INVALID_SYMBOL");
  }
  SUBCASE("403 before 402") {
    for (const char* query : {"symbol=600519.SH,000001.SZ", "symbol=600519.SH&limit=501"}) {
      CAPTURE(std::string_view(query));
      check_error(server.get(k_bars_path, query, broke), 403, "PLAN_LIMIT");
    }
    // History is measured from as_of 2024-01-08: a free key reaches back to 2022-01-08.
    const auto old =
        server.get("/v1/ohlc/range/1/day/2022-01-07/2024-01-31", "symbol=600519.SH", broke);
    check_error(old, 403, "PLAN_LIMIT");
    CHECK(body(old)["error"]["message"]
          == "from \"2022-01-07\" is earlier than 2022-01-08, the earliest date reachable on the "
             "free plan (as_of 2024-01-08)");
    check_error(server.get("/v1/ohlc/range/1/day/2022-01-08/2024-01-31", "symbol=600519.SH", broke),
                402, "INSUFFICIENT_CREDITS");
  }
}

TEST_CASE("D1: a multi-symbol request with an unknown symbol is PARTIAL") {
  Server server;
  const auto key = server.key(Plan::basic, 10);

  SUBCASE("only the known symbols are charged") {
    const auto response = server.get(k_bars_path, "symbol=600519.SH,000002.SZ,000001.sz", key);
    REQUIRE(response.status == 200);
    const auto parsed = body(response);
    CHECK(parsed["status"] == "PARTIAL");
    CHECK(parsed["resultsCount"] == 3);
    CHECK_FALSE(parsed.contains("symbol"));
    CHECK_FALSE(parsed.contains("ohlc"));
    const auto& results = parsed["results"];
    REQUIRE(results.size() == 3);
    CHECK(results[0]["symbol"] == "600519.SH");
    CHECK(results[0]["resultsCount"] == 5);
    CHECK_FALSE(results[0].contains("error"));
    CHECK(results[1]["symbol"] == "000002.SZ");
    CHECK(results[1]["resultsCount"] == 0);
    CHECK(results[1]["ohlc"] == json::array());
    CHECK(results[1]["error"]["code"] == "INVALID_SYMBOL");
    CHECK(results[1]["error"]["message"] == "unknown symbol \"000002.SZ\"");
    CHECK(results[2]["symbol"] == "000001.SZ");
    CHECK(results[2]["resultsCount"] == 2);
    CHECK(parsed["meta"]["credits_charged"] == 2);
    CHECK(header(response, "X-Credits-Remaining") == "8");
    CHECK(server.balance(key) == 8);
  }
  SUBCASE("every symbol unknown: cost 0 passes at any balance") {
    const auto broke = server.key(Plan::basic, 0);
    const auto response = server.get(k_bars_path, "symbol=000002.SZ,000003.SZ", broke);
    REQUIRE(response.status == 200);
    const auto parsed = body(response);
    CHECK(parsed["status"] == "PARTIAL");
    CHECK_FALSE(parsed["meta"].contains("credits_charged"));
    CHECK(header(response, "X-Credits-Remaining") == "0");
  }
  SUBCASE("a known symbol with no bars in range is a success: OK") {
    const auto response =
        server.get("/v1/ohlc/range/1/day/2024-01-05/2024-01-31", "symbol=600519.SH,000001.SZ", key);
    REQUIRE(response.status == 200);
    const auto parsed = body(response);
    CHECK(parsed["status"] == "OK");
    CHECK(parsed["results"][1]["resultsCount"] == 0);
    CHECK_FALSE(parsed["results"][1].contains("error"));
    CHECK(parsed["meta"]["credits_charged"] == 2);
  }
}

TEST_CASE("D8: next_url when limit leaves bars out") {
  Server server;
  const auto key = server.key(Plan::pro, std::nullopt);

  SUBCASE("asc: from moves to the day after the last bar returned") {
    const auto parsed = body(server.get(k_bars_path, "symbol=600519.SH&limit=2", key));
    CHECK(dates(parsed["ohlc"]) == std::vector<std::string>{"2024-01-02", "2024-01-03"});
    CHECK(parsed["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-04/2024-01-31?symbol=600519.SH&limit=2");
  }
  SUBCASE("desc: to moves to the day before the last bar returned") {
    const auto parsed = body(server.get(k_bars_path, "sort=desc&symbol=600519.SH&limit=2", key));
    CHECK(dates(parsed["ohlc"]) == std::vector<std::string>{"2024-01-08", "2024-01-05"});
    CHECK(parsed["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-01/2024-01-04?sort=desc&symbol=600519.SH&limit=2");
  }
  SUBCASE("every other parameter is kept") {
    const auto parsed = body(server.get(
        k_bars_path, "symbol=600519.sh&adjusted=false&limit=4&include=summary&x=1", key));
    CHECK(parsed["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-06/"
             "2024-01-31?symbol=600519.SH&adjusted=false&limit=4&include=summary&x=1");
  }
  SUBCASE("absent when nothing is left out") {
    CHECK_FALSE(
        body(server.get(k_bars_path, "symbol=600519.SH&limit=5", key)).contains("next_url"));
    CHECK_FALSE(body(server.get(k_bars_path, "symbol=600519.SH", key)).contains("next_url"));
  }
  SUBCASE("multi-symbol: each item's next_url names that symbol alone") {
    const auto parsed =
        body(server.get(k_bars_path, "symbol=600519.SH,000001.SZ,000002.SZ&limit=2", key));
    const auto& results = parsed["results"];
    CHECK(results[0]["next_url"]
          == "/v1/ohlc/range/1/day/2024-01-04/2024-01-31?symbol=600519.SH&limit=2");
    CHECK_FALSE(results[1].contains("next_url")); // 000001.SZ has exactly 2 bars
    CHECK_FALSE(results[2].contains("next_url"));
    CHECK_FALSE(parsed.contains("next_url"));
  }
  SUBCASE("following next_url visits every bar once") {
    for (const char* sort : {"asc", "desc"}) {
      CAPTURE(std::string_view(sort));
      std::string url = std::string(k_bars_path) + "?symbol=600519.SH&limit=2&sort=" + sort;
      std::vector<std::string> seen;
      for (int page = 0; page < 10 && !url.empty(); ++page) {
        const auto question = url.find('?');
        const auto response = server.get(url.substr(0, question), url.substr(question + 1), key);
        REQUIRE(response.status == 200);
        const auto parsed = body(response);
        for (const auto& day : dates(parsed["ohlc"])) {
          seen.push_back(day);
        }
        url = parsed.contains("next_url") ? parsed["next_url"].get<std::string>() : "";
      }
      CHECK(url.empty());
      std::vector<std::string> expected{"2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05",
                                        "2024-01-08"};
      if (std::string_view(sort) == "desc") {
        std::reverse(expected.begin(), expected.end());
      }
      CHECK(seen == expected);
    }
  }
}

TEST_CASE("D7: concurrent requests never spend more than the balance") {
  Server server;
  const auto key = server.key(Plan::basic, 20);
  constexpr int k_requests = 50;
  std::atomic<int> ok{0};
  std::atomic<int> refused{0};
  std::atomic<int> other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < k_requests; ++i) {
    threads.emplace_back([&] {
      try {
        const auto response = server.get(k_bars_path, "symbol=600519.SH", key);
        if (response.status == 200) {
          ++ok;
        } else if (response.status == 402) {
          ++refused;
        } else {
          ++other;
        }
      } catch (const std::exception&) {
        ++other;
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  CHECK(ok == 20);
  CHECK(refused == k_requests - 20);
  CHECK(other == 0);
  CHECK(server.balance(key) == 0);
}

TEST_CASE("api::error_response and api::route_patterns") {
  Server server;
  const auto response =
      api::error_response(ErrorCode::internal, "internal error", *server.services);
  check_error(response, 500, "INTERNAL_ERROR");
  CHECK(body(response)["error"]["message"] == "internal error");
  const auto patterns = api::route_patterns();
  CHECK(std::find(patterns.begin(), patterns.end(), "/v1/ohlc/range/*/*/*/*") != patterns.end());
  CHECK(std::find(patterns.begin(), patterns.end(), "/healthz") != patterns.end());
  CHECK(std::find(patterns.begin(), patterns.end(), "/v1/openapi.json") != patterns.end());
}

namespace {

// Answer `request` as a server does: from memory first, then the deferred or charged step.
api::Response in_two_steps(api::Services& services, const api::Request& request) {
  auto step = api::dispatch_in_memory(request, services);
  if (auto* response = std::get_if<api::Response>(&step)) {
    return std::move(*response);
  }
  if (auto* deferred = std::get_if<api::Deferred>(&step)) {
    return api::finish_dispatch(request, services, *deferred);
  }
  auto& needed = std::get<api::ChargeNeeded>(step);
  return needed.finish(api::apply_charges(services, std::span(&needed.charge, 1)).front());
}

json comparable(const api::Response& response) {
  auto parsed = body(response);
  parsed.erase("request_id");
  return parsed;
}

} // namespace

TEST_CASE("api::dispatch_in_memory: from memory once warm, deferred while the store is needed") {
  Server server;
  const auto key = server.key(Plan::pro, std::nullopt);
  const api::Request bars{"GET", k_bars_path, "symbol=600519.SH", "Bearer " + key.plaintext};
  const api::Request health{"GET", "/healthz", "", std::nullopt};

  SUBCASE("a cold server defers, and the deferred answer keeps the request id") {
    auto step = api::dispatch_in_memory(bars, *server.services);
    REQUIRE(std::holds_alternative<api::Deferred>(step));
    const auto deferred = std::get<api::Deferred>(step);
    const auto response = api::finish_dispatch(bars, *server.services, deferred);
    CHECK(response.status == 200);
    CHECK(header(response, "X-Request-Id") == deferred.request_id);
    CHECK(body(response)["request_id"] == deferred.request_id);
  }
  SUBCASE("warm, every route answers from memory, as dispatch() does") {
    // A symbol's first request reads just its rows; its history is kept from the second on
    // (HistoryCache::admit, issue 11 P5).
    for (int i = 0; i < 2; ++i) {
      CHECK(server.call("GET", k_bars_path, "symbol=600519.SH", "Bearer " + key.plaintext).status
            == 200);
    }
    test::await_idle(server.services->filler); // loaded off the requests' path (issue 35)
    const std::vector<api::Request> requests{
        bars,
        health,
        {"HEAD", "/healthz", "", std::nullopt},
        {"GET", "/v1/openapi.json", "", std::nullopt},
        {"GET", "/nowhere", "", std::nullopt},
        {"POST", k_bars_path, "", std::nullopt},
        {"GET", k_bars_path, "symbol=600519.SH", std::nullopt},                 // 401
        {"GET", k_bars_path, "symbol=600519.SH&sort=up", "Bearer " + key.plaintext}, // 400
        {"GET", "/v1/indicators/sma", "symbol=600519.SH&window=2", "Bearer " + key.plaintext},
    };
    for (const auto& request : requests) {
      CAPTURE(request.method);
      CAPTURE(request.path);
      CAPTURE(request.query);
      auto step = api::dispatch_in_memory(request, *server.services);
      REQUIRE(std::holds_alternative<api::Response>(step));
      const auto& fast = std::get<api::Response>(step);
      const auto slow = api::dispatch(request, *server.services);
      CHECK(fast.status == slow.status);
      if (request.path != "/v1/openapi.json") {
        CHECK(comparable(fast) == comparable(slow));
      }
    }
  }
  SUBCASE("an import is seen by the next request, through the change counter") {
    CHECK(in_two_steps(*server.services, bars).status == 200);
    CHECK(in_two_steps(*server.services, bars).status == 200); // kept from the second request on
    test::await_idle(server.services->filler);
    REQUIRE(std::holds_alternative<api::Response>(api::dispatch_in_memory(bars, *server.services)));
    server.stores.import_text(
        "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
        "600519.SH,2024-01-09,6,6.2,5.9,6.1,200,1220,0.8264,2\n",
        test::import_options(false, "unit"));
    CHECK(std::holds_alternative<api::Deferred>(api::dispatch_in_memory(bars, *server.services)));
    const auto after = in_two_steps(*server.services, bars);
    CHECK(body(after)["resultsCount"] == 6);
    CHECK(body(after)["meta"]["as_of"] == "2024-01-09");
  }
  SUBCASE("a key revoked elsewhere is refused by the next request") {
    CHECK(in_two_steps(*server.services, bars).status == 200);
    const auto admin = server.stores.open_keys();
    REQUIRE(admin->revoke(key.id, "2024-03-01T00:00:00Z"));
    const auto refused = in_two_steps(*server.services, bars);
    check_error(refused, 401, "UNAUTHORIZED");
    CHECK(body(refused)["error"]["message"] == "API key revoked at 2024-03-01T00:00:00Z");
  }
}

TEST_CASE("issue 43: a deferred request resumes at the step that waited") {
  Server server;
  const auto key = server.key(Plan::pro, std::nullopt);
  const api::Request bars{"GET", k_bars_path, "symbol=600519.SH", "Bearer " + key.plaintext};
  // The key and the catalog are in memory after this; the history is not (a symbol's first
  // request reads just its rows), so the next request waits at its answer.
  REQUIRE(in_two_steps(*server.services, bars).status == 200);
  auto step = api::dispatch_in_memory(bars, *server.services);
  REQUIRE(std::holds_alternative<api::Deferred>(step));
  const auto deferred = std::get<api::Deferred>(step);

  SUBCASE("not authenticated again: a key revoked meanwhile refuses the next request only") {
    REQUIRE(server.stores.open_keys()->revoke(key.id, "2024-03-01T00:00:00Z"));
    const auto resumed = api::finish_dispatch(bars, *server.services, deferred);
    CHECK(resumed.status == 200);
    CHECK(body(resumed)["resultsCount"] == 5);
    check_error(in_two_steps(*server.services, bars), 401, "UNAUTHORIZED");
  }
  SUBCASE("the store moved on meanwhile: admitted again under what the worker reads") {
    REQUIRE(server.stores
              .import_text("symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
                           "600519.SH,2024-01-09,6,6.2,5.9,6.1,200,1220,0.8264,2\n",
                           test::import_options(false, "unit"))
              .committed);
    const auto resumed = api::finish_dispatch(bars, *server.services, deferred);
    CHECK(resumed.status == 200);
    CHECK(body(resumed)["resultsCount"] == 6);
    CHECK(body(resumed)["meta"]["as_of"] == "2024-01-09");
    CHECK(header(resumed, "ETag") == header(in_two_steps(*server.services, bars), "ETag"));
  }
}

TEST_CASE("D7: a metered request waits on its charge: apply_charges, then finish") {
  Server server;
  const auto metered = server.key(Plan::basic, 3);
  const auto two = api::Request{"GET", k_bars_path, "symbol=600519.SH,000001.SZ",
                                "Bearer " + metered.plaintext};
  // A history is cached when asked for again (HistoryCache::admit): an unmetered key asks first.
  const auto unmetered = server.key(Plan::pro, std::nullopt);
  CHECK(in_two_steps(*server.services,
                     api::Request{"GET", k_bars_path, "symbol=600519.SH,000001.SZ",
                                  "Bearer " + unmetered.plaintext})
            .status
        == 200);
  CHECK(in_two_steps(*server.services, two).status == 200); // warms the caches: 3 -> 1
  test::await_idle(server.services->filler);
  CHECK(server.balance(metered) == 1);

  SUBCASE("the charge is not made until apply_charges") {
    const auto one = api::Request{"GET", k_bars_path, "symbol=600519.SH",
                                  "Bearer " + metered.plaintext};
    auto step = api::dispatch_in_memory(one, *server.services);
    REQUIRE(std::holds_alternative<api::ChargeNeeded>(step));
    auto& needed = std::get<api::ChargeNeeded>(step);
    CHECK(needed.charge.key_id == metered.id);
    CHECK(needed.charge.cost == 1);
    CHECK(server.balance(metered) == 1);
    const auto response =
      needed.finish(api::apply_charges(*server.services, std::span(&needed.charge, 1)).front());
    CHECK(response.status == 200);
    CHECK(header(response, "X-Credits-Remaining") == "0");
    CHECK(body(response)["meta"]["credits_charged"] == 1);
    CHECK(server.balance(metered) == 0);
  }
  SUBCASE("several requests' charges in one batch, each decided on its own") {
    const auto one = api::Request{"GET", k_bars_path, "symbol=600519.SH",
                                  "Bearer " + metered.plaintext};
    auto first = std::get<api::ChargeNeeded>(api::dispatch_in_memory(one, *server.services));
    auto second = std::get<api::ChargeNeeded>(api::dispatch_in_memory(one, *server.services));
    const std::vector<store::ChargeRequest> charges{first.charge, second.charge};
    const auto results = api::apply_charges(*server.services, charges);
    const auto paid = first.finish(results[0]);
    const auto refused = second.finish(results[1]);
    CHECK(paid.status == 200);
    check_error(refused, 402, "INSUFFICIENT_CREDITS");
    CHECK(header(refused, "X-Credits-Remaining") == "0");
    CHECK(server.balance(metered) == 0);
  }
  SUBCASE("errors and free answers still read the balance (X-Credits-Remaining)") {
    for (const auto& query : {std::string("symbol=600519.SH&limit=0"),
                              std::string("symbol=600519.SH,000002.SZ,000003.SZ,000004.SZ,000005.SZ,000006.SZ"),
                              std::string("symbol=000002.SZ,000003.SZ")}) {
      CAPTURE(query);
      const auto request = api::Request{"GET", k_bars_path, query, "Bearer " + metered.plaintext};
      auto step = api::dispatch_in_memory(request, *server.services);
      REQUIRE(std::holds_alternative<api::ChargeNeeded>(step));
      CHECK(std::get<api::ChargeNeeded>(step).charge.cost == 0);
      const auto response = in_two_steps(*server.services, request);
      CHECK(header(response, "X-Credits-Remaining") == "1");
    }
    CHECK(server.balance(metered) == 1);
  }
  SUBCASE("a key revoked between the answer and its charge is refused, not charged") {
    const auto one = api::Request{"GET", k_bars_path, "symbol=600519.SH",
                                  "Bearer " + metered.plaintext};
    auto needed = std::get<api::ChargeNeeded>(api::dispatch_in_memory(one, *server.services));
    const auto admin = server.stores.open_keys();
    REQUIRE(admin->revoke(metered.id, "2024-03-01T00:00:00Z"));
    const auto response =
      needed.finish(api::apply_charges(*server.services, std::span(&needed.charge, 1)).front());
    check_error(response, 401, "UNAUTHORIZED");
    CHECK(server.balance(metered) == 1);
  }
}

TEST_CASE("D14: 429 RATE_LIMITED with Retry-After after authentication, before validation, free") {
  Server server;
  server.services->rate_limiter.enable(auth::PlanRates{1, 0, 0}); // Free 1 a second: 2 at once
  const auto free_key = server.key(Plan::free, std::nullopt);
  const auto metered = server.key(Plan::free, 100);
  const api::Request bars{"GET", k_bars_path, "symbol=600519.SH", "Bearer " + free_key.plaintext};
  CHECK(in_two_steps(*server.services, bars).status == 200); // deferred: the store is cold
  CHECK(in_two_steps(*server.services, bars).status == 200); // from memory
  const auto refused = in_two_steps(*server.services, bars);
  check_error(refused, 429, "RATE_LIMITED");
  CHECK(header(refused, "Retry-After") == "1");
  CHECK(body(refused)["error"]["message"]
        == "too many requests: the free plan allows this key 1 a second; retry after 1 s");
  // Before parameter validation: an invalid request is 429 too; an unknown key still 401.
  check_error(server.call("GET", k_bars_path, "symbol=bad", "Bearer " + free_key.plaintext), 429,
              "RATE_LIMITED");
  check_error(server.call("GET", k_bars_path, "symbol=600519.SH", "Bearer ask_nobody"), 401,
              "UNAUTHORIZED");
  // Not limited: the public routes, and other plans (rate 0).
  for (int i = 0; i < 5; ++i) {
    CHECK(server.call("GET", "/healthz", "", std::nullopt).status == 200);
    CHECK(server.call("GET", "/v1/openapi.json", "", std::nullopt).status == 200);
  }
  const auto pro = server.key(Plan::pro, std::nullopt);
  for (int i = 0; i < 20; ++i) {
    CHECK(server.get(k_bars_path, "symbol=600519.SH", pro).status == 200);
  }
  // A metered key: 429 carries X-Credits-Remaining and charges nothing.
  const api::Request metered_bars{"GET", k_bars_path, "symbol=600519.SH",
                                  "Bearer " + metered.plaintext};
  CHECK(in_two_steps(*server.services, metered_bars).status == 200);
  CHECK(in_two_steps(*server.services, metered_bars).status == 200);
  for (int i = 0; i < 3; ++i) {
    const auto limited = in_two_steps(*server.services, metered_bars);
    check_error(limited, 429, "RATE_LIMITED");
    CHECK(header(limited, "X-Credits-Remaining") == "98");
    CHECK(header(limited, "Retry-After") == "1");
  }
  CHECK(server.balance(metered) == 98);
}

TEST_CASE("D14: a request deferred to a worker takes one token, not two") {
  Server server;
  server.services->rate_limiter.enable(auth::PlanRates{1, 0, 0}); // 2 at once
  const auto key = server.key(Plan::free, std::nullopt);
  // Each request of another symbol range is deferred the first time (a cold history).
  const api::Request first{"GET", k_bars_path, "symbol=600519.SH", "Bearer " + key.plaintext};
  const api::Request second{"GET", k_bars_path, "symbol=000001.SZ", "Bearer " + key.plaintext};
  CHECK(in_two_steps(*server.services, first).status == 200);
  CHECK(in_two_steps(*server.services, second).status == 200);
  CHECK(in_two_steps(*server.services, first).status == 429);
}

} // namespace test_api_dispatch
