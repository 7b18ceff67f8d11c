// D17's conditional requests over HTTP: weak ETags on bars, indicators, /healthz and the OpenAPI
// document that change exactly with the data's generation, the canonical request and the plan;
// If-None-Match answered 304 with no body and no charge, in the place of the charge in D6's order.
#include "fixtures.hpp"
#include "raw_http.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace bb;

namespace {

const std::string k_half_year = bars_target("2024-01-01", "2024-06-30", "symbol=600519.SH");

Reply conditional_get(const std::string& target,
                      const std::optional<std::string>& key = shared().pro.plaintext,
                      const std::string& if_none_match = "",
                      const std::string& method = "GET") {
  httplib::Headers headers;
  if (!if_none_match.empty()) {
    headers.emplace("If-None-Match", if_none_match);
  }
  return request_with_headers(shared().port(), target, key, headers, method);
}

// The ETag of a 200 (fails the test otherwise).
std::string etag_of(const Reply& reply) {
  REQUIRE(reply.status == 200);
  REQUIRE(reply.header_count("ETag") == 1);
  const auto etag = reply.header("ETag");
  CHECK(etag.rfind("W/\"", 0) == 0);
  CHECK(etag.back() == '"');
  return etag;
}

// Check that `reply` is the 304 of `etag`: no body, the tag, a request id.
void check_not_modified(const Reply& reply, const std::string& etag) {
  CHECK(reply.status == 304);
  CHECK(reply.body.empty());
  CHECK(reply.header("ETag") == etag);
  CHECK(is_request_id(reply.header("X-Request-Id")));
}

} // namespace

TEST_CASE("D17: a 200 carries a weak ETag that names the canonical request, not its spelling") {
  const auto first = conditional_get(k_half_year);
  const auto etag = etag_of(first);
  const auto again = conditional_get(k_half_year);
  CHECK(etag_of(again) == etag);
  // request_id is not part of it.
  CHECK(first.json()["request_id"] != again.json()["request_id"]);
  // D4's other spellings of the same request.
  CHECK(etag_of(conditional_get(
            bars_target("2024-01-01", "2024-06-30", "symbol=600519.sh&adjusted=1&sort=ASC")))
        == etag);
  // Anything that changes the answer changes the tag.
  std::set<std::string> tags{etag};
  for (const std::string& other :
       {bars_target("2024-01-01", "2024-06-29", "symbol=600519.SH"),
        bars_target("2024-01-01", "2024-06-30", "symbol=600519.SH&adjusted=false"),
        bars_target("2024-01-01", "2024-06-30", "symbol=600519.SH&sort=desc"),
        bars_target("2024-01-01", "2024-06-30", "symbol=600519.SH&limit=5"),
        bars_target("2024-01-01", "2024-06-30", "symbol=600036.SH")}) {
    CAPTURE(other);
    CHECK(tags.insert(etag_of(conditional_get(other))).second);
  }
  SUBCASE("the plan is part of it: plan clipping changes what is served (D6)") {
    const auto free = etag_of(conditional_get(k_half_year, shared().free.plaintext));
    const auto basic = etag_of(conditional_get(k_half_year, shared().basic.plaintext));
    CHECK(free != etag);
    CHECK(basic != etag);
    CHECK(free != basic);
  }
  SUBCASE("indicators") {
    using indicator_tests::target;
    const auto sma = etag_of(conditional_get(target("sma", "symbol=600519.SH&window=5")));
    CHECK(etag_of(conditional_get(target("sma", "window=5&symbol=600519.sh"))) == sma);
    CHECK(etag_of(conditional_get(target("sma", "symbol=600519.SH&window=6"))) != sma);
    CHECK(etag_of(conditional_get(target("ema", "symbol=600519.SH&window=5"))) != sma);
    CHECK(etag_of(conditional_get(target("macd", "symbol=600519.SH&convention=tdx")))
          != etag_of(conditional_get(target("macd", "symbol=600519.SH"))));
  }
  SUBCASE("/healthz and the OpenAPI document, which need no key") {
    for (const std::string target : {"/healthz", "/v1/openapi.json"}) {
      CAPTURE(target);
      const auto tag = etag_of(conditional_get(target, std::nullopt));
      CHECK(etag_of(conditional_get(target, std::nullopt)) == tag);
      check_not_modified(conditional_get(target, std::nullopt, tag), tag);
    }
  }
  SUBCASE("errors carry none") {
    CHECK_FALSE(conditional_get(bars_target("2024-01-02", "2024-01-01", "symbol=600519.SH"))
                    .has_header("ETag"));
    CHECK_FALSE(conditional_get(k_half_year, std::nullopt).has_header("ETag"));
  }
}

TEST_CASE("D17: If-None-Match naming the current tag is 304 with no body") {
  const auto etag = etag_of(conditional_get(k_half_year));
  const std::string strong = etag.substr(2); // weak comparison: W/ or not, the same tag
  for (const std::string& condition : std::vector<std::string>{
         etag, strong, "*", "\"nope\", " + etag, "W/\"nope\",W/\"other\" , " + etag}) {
    CAPTURE(condition);
    check_not_modified(conditional_get(k_half_year, shared().pro.plaintext, condition), etag);
  }
  for (const std::string condition : {"W/\"nope\"", "\"\"", "garbage", "W/"}) {
    CAPTURE(condition);
    const auto full = conditional_get(k_half_year, shared().pro.plaintext, condition);
    CHECK(etag_of(full) == etag);
    CHECK_FALSE(full.body.empty());
  }
  SUBCASE("HEAD too") {
    check_not_modified(conditional_get(k_half_year, shared().pro.plaintext, etag, "HEAD"), etag);
  }
  SUBCASE("on the wire: no Content-Length, nothing after the head (RFC 9110 8.6)") {
    const auto raw = raw_exchange(shared().port(),
                                  "GET " + k_half_year
                                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                                    + shared().pro.plaintext + "\r\nIf-None-Match: " + etag
                                    + "\r\nConnection: close\r\n\r\n");
    REQUIRE(raw.rfind("HTTP/1.1 304 Not Modified\r\n", 0) == 0);
    CHECK(raw.find("\r\n\r\n") == raw.size() - 4);
    CHECK(raw.find("Content-Length") == std::string::npos);
    CHECK(raw.find("\r\nVary: Accept-Encoding\r\n") != std::string::npos);
  }
}

TEST_CASE("D17: a metered key revalidates 100 times and is charged nothing") {
  auto& store = shared().store;
  const auto metered = store.create_key("pro", 2, "revalidates");
  const auto first = conditional_get(k_half_year, metered.plaintext);
  const auto etag = etag_of(first);
  CHECK(remaining(first) == "1");
  CHECK(first.json()["meta"]["credits_charged"] == 1);
  for (int i = 0; i < 100; ++i) {
    const auto reply = conditional_get(k_half_year, metered.plaintext, etag);
    check_not_modified(reply, etag);
    REQUIRE(remaining(reply) == "1"); // D7: the balance, on every response after authentication
  }
  CHECK(store.listed_credits(metered.id) == "1");
  SUBCASE("a metered key's tag differs from an unmetered one's: its body names the charge") {
    CHECK(etag != etag_of(conditional_get(k_half_year)));
  }
  SUBCASE("with no credits left it still revalidates: 304 in place of the 402") {
    REQUIRE(conditional_get(bars_target("2024-01-01", "2024-01-31", "symbol=600519.SH"),
                            metered.plaintext)
                .status
            == 200);
    const auto revalidated = conditional_get(k_half_year, metered.plaintext, etag);
    check_not_modified(revalidated, etag);
    CHECK(remaining(revalidated) == "0");
    check_error(conditional_get(k_half_year, metered.plaintext), 402, "INSUFFICIENT_CREDITS");
    CHECK(store.listed_credits(metered.id) == "0");
  }
}

TEST_CASE("D17: the 304 comes after 401, 400 and 403 (D6 order)") {
  const std::string any = "*";
  check_error(conditional_get(k_half_year, std::nullopt, any), 401, "UNAUTHORIZED");
  check_error(conditional_get(bars_target("2024-01-02", "2024-01-01", "symbol=600519.SH"),
                              shared().pro.plaintext, any),
              400, "INVALID_PARAMETER");
  check_error(conditional_get(bars_target("2010-01-04", "2024-01-04", "symbol=600519.SH"),
                              shared().free.plaintext, any),
              403, "PLAN_LIMIT");
  check_error(conditional_get("/v1/nowhere", shared().pro.plaintext, any), 404, "NOT_FOUND");
}

TEST_CASE("D17: an import changes the ETag; a revoke makes revalidation 401") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", 10);
  ServerProcess server(store);
  const auto fetch = [&](const std::string& condition) {
    httplib::Headers headers;
    if (!condition.empty()) {
      headers.emplace("If-None-Match", condition);
    }
    return request_with_headers(server.port(), k_half_year, key.plaintext, headers);
  };
  const auto before = etag_of(fetch(""));
  check_not_modified(fetch(before), before);
  const auto health = etag_of(request(server.port(), "/healthz"));

  // Another symbol's file: 600519.SH's bars are the same, but the store's generation moved.
  store.import({fixture("jenny_000001.SZ.csv")});
  Reply after;
  REQUIRE(await_on_server(store, [&] {
    after = fetch(before);
    return after.status == 200;
  }));
  CHECK(etag_of(after) != before);
  CHECK(remaining(after) == "8"); // the revalidations cost nothing; each 200 costs one credit
  check_not_modified(fetch(after.header("ETag")), after.header("ETag"));
  CHECK(etag_of(request(server.port(), "/healthz")) == health); // same as_of and source

  REQUIRE(store.cli({"keys", "revoke", std::to_string(key.id)}).status == 0);
  await_revoked(store, server.port(), k_half_year, key.plaintext);
  check_error(fetch(after.header("ETag")), 401, "UNAUTHORIZED");
}

TEST_CASE("D17: a store built again with other data never answers the old tags") {
  // The same imports give the same generation; the data differ (one close changed).
  const auto fixed = [](const TestStore& store, const std::string& close) {
    const auto path = store.dir() / "fix.csv";
    std::ofstream(path)
      << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
         "600519.SH,2024-03-01,1690.0,1694.97,1676.68,"
      << close << ",2686796,4526845400,-0.5864,7.8576\n";
    return path;
  };
  TestStore first;
  first.import({fixture("bancob_600519.SH.csv")});
  first.import({fixed(first, "1685.07")});
  const auto key = first.create_key("pro");
  std::string tag;
  {
    ServerProcess server(first);
    tag = etag_of(request(server.port(), k_half_year, key.plaintext));
  }
  TestStore second;
  second.import({fixture("bancob_600519.SH.csv")});
  second.import({fixed(second, "1685.08")});
  const auto other = second.create_key("pro");
  ServerProcess server(second);
  const auto reply =
    request_with_headers(server.port(), k_half_year, other.plaintext, {{"If-None-Match", tag}});
  CHECK(reply.status == 200);
  CHECK(etag_of(reply) != tag);
}

TEST_CASE("D17: revalidations are requests too: beyond the rate, 429 before any 304 (D14)") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("free", 5);
  ServerProcess server(store, {"--rate-limit", "free=1"}); // a bucket of 2, refilled 1 a second
  int not_modified = 0;
  int limited = 0;
  for (int i = 0; i < 8; ++i) {
    const auto reply =
      request_with_headers(server.port(), k_half_year, key.plaintext, {{"If-None-Match", "*"}});
    if (reply.status == 304) {
      ++not_modified;
    } else {
      check_error(reply, 429, "RATE_LIMITED");
      CHECK(std::stoi(reply.header("Retry-After")) >= 1);
      ++limited;
    }
    CHECK(remaining(reply) == "5"); // neither is charged; both tell the balance (D7)
  }
  CHECK(not_modified >= 2);
  CHECK(limited >= 1);
}
