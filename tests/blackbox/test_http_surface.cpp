// D10 and D5's open routes: /healthz and /v1/openapi.json without a key, HEAD, 404 and 405
// envelopes, X-Request-Id on every response, and the access log.
#include "fixtures.hpp"

#include <doctest/doctest.h>
#include <map>
#include <set>

using namespace bb;
using nlohmann::json;

namespace {

const std::string k_one = bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH");

// Headers of `reply` without those D10 lets differ between GET and HEAD.
httplib::Headers comparable(const Reply& reply) {
  httplib::Headers out = reply.headers;
  for (const char* name : {"Content-Length", "Date", "X-Request-Id", "X-Credits-Remaining"}) {
    out.erase(name);
  }
  return out;
}

} // namespace

TEST_CASE("D5: /healthz and /v1/openapi.json need no key") {
  const auto port = shared().port();
  const auto health = request(port, "/healthz", std::nullopt);
  CHECK(health.status == 200);
  CHECK(health.header("Content-Type").rfind("application/json", 0) == 0);
  CHECK(health.body == R"({"status":"ok","as_of":"2025-10-23","schema_version":"2026-05-27"})");
  CHECK(is_request_id(health.header("X-Request-Id")));
  CHECK_FALSE(health.has_header("X-Credits-Remaining"));

  const auto openapi = request(port, "/v1/openapi.json", std::nullopt);
  CHECK(openapi.status == 200);
  CHECK(openapi.header("Content-Type").rfind("application/json", 0) == 0);
  const auto document = openapi.json();
  CHECK(document["openapi"].get<std::string>().rfind("3.1", 0) == 0);
  CHECK(document["info"]["version"] == k_schema_version);

  SUBCASE("a key, even a bad one, changes nothing there") {
    CHECK(request(port, "/healthz", "ask_not_a_key").body == health.body);
    const auto metered = shared().store.create_key("pro", 3, "health");
    const auto reply = request(port, "/healthz", metered.plaintext);
    CHECK(reply.status == 200);
    CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
    CHECK(shared().store.listed_credits(metered.id) == "3");
  }
}

TEST_CASE("D10: unknown routes are 404 NOT_FOUND whatever the method") {
  const auto port = shared().port();
  const std::vector<std::string> targets{
      "/",
      "/v1",
      "/v1/",
      "/healthz/",
      "/v1/openapi.json/",
      "/HEALTHZ",
      "/v1/OpenAPI.json",
      "/v2/ohlc/range/1/day/2024-01-02/2024-01-05?symbol=600519.SH",
      "/v1/ohlc/range/1/day/2024-01-02?symbol=600519.SH",
      "/v1/ohlc/range/1/day/2024-01-02/2024-01-05/?symbol=600519.SH",
      "/v1/ohlc/range/1/day/2024-01-02/2024-01-05/x?symbol=600519.SH",
      "/v1/ohlc/range/1/day//2024-01-05?symbol=600519.SH",
      "//healthz",
      "/healthz.json",
  };
  for (const auto& target : targets) {
    for (const std::string method : {"GET", "POST", "DELETE", "PUT", "PATCH", "OPTIONS"}) {
      CAPTURE(target);
      CAPTURE(method);
      for (const auto& key :
           {std::optional<std::string>(), std::optional(shared().pro.plaintext)}) {
        const auto reply = request(port, target, key, method);
        check_error(reply, 404, "NOT_FOUND");
        CHECK_FALSE(reply.has_header("Allow"));
        CHECK_FALSE(reply.has_header("WWW-Authenticate"));
        CHECK(reply.body.find(shared().store.dir().string()) == std::string::npos);
      }
    }
    const auto head = request(port, target, std::nullopt, "HEAD");
    CHECK(head.status == 404);
    CHECK(head.body.empty());
  }
}

TEST_CASE("D10: other methods on a known route are 405 with Allow: GET, HEAD") {
  const auto port = shared().port();
  for (const std::string& target :
       {std::string("/healthz"), std::string("/v1/openapi.json"), k_one}) {
    for (const std::string method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
      CAPTURE(target);
      CAPTURE(method);
      for (const auto& key :
           {std::optional<std::string>(), std::optional(shared().pro.plaintext)}) {
        const auto reply = request(port, target, key, method);
        check_error(reply, 405, "METHOD_NOT_ALLOWED");
        CHECK(reply.header("Allow") == "GET, HEAD");
        CHECK(reply.header_count("Allow") == 1);
        CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
      }
    }
  }
  SUBCASE("a body sent with the request does not leak into the next one") {
    const auto raw = raw_exchange(port,
                                  "POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                  "Content-Length: 25\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n",
                                  1s); // time for a second response, were the body taken as one
    CHECK(raw.rfind("HTTP/1.1 405 ", 0) == 0);
    CHECK(raw.find("HTTP/1.1 200") == std::string::npos);
  }
}

TEST_CASE("D10: HEAD answers as GET would, without a body") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  const std::vector<std::pair<std::string, std::optional<std::string>>> cases{
      {"/healthz", std::nullopt},
      {"/v1/openapi.json", std::nullopt},
      {k_one, key},
      {bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH,000002.SZ&include=summary"), key},
      {bars_target("2024-01-05", "2024-01-02", "symbol=600519.SH"), key},    // 400
      {"/v1/ohlc/range/1/week/2024-01-02/2024-01-05?symbol=600519.SH", key}, // 400
      {k_one, std::nullopt},                                                 // 401
      {bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH,600036.SH"),
       shared().free.plaintext}, // 403
      {"/nowhere", key},         // 404
  };
  for (const auto& [target, auth] : cases) {
    CAPTURE(target);
    const auto get = request(port, target, auth, "GET");
    const auto head = request(port, target, auth, "HEAD");
    CHECK(head.status == get.status);
    CHECK(head.body.empty());
    CHECK(comparable(head) == comparable(get));
    CHECK(is_request_id(head.header("X-Request-Id")));
    CHECK(head.header("X-Request-Id") != get.header("X-Request-Id"));
  }
  SUBCASE("no body bytes on the wire") {
    for (const std::string& target : {std::string("/healthz"), k_one, std::string("/nowhere")}) {
      CAPTURE(target);
      const auto raw = raw_exchange(
          port, "HEAD " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                    + "\r\nConnection: close\r\n\r\n");
      const auto end = raw.find("\r\n\r\n");
      REQUIRE(end != std::string::npos);
      CHECK(raw.size() == end + 4);
      CHECK(raw.rfind("HTTP/1.1 ", 0) == 0);
    }
  }
  SUBCASE("the same credit charge as GET") {
    const auto metered = shared().store.create_key("basic", 10, "head").plaintext;
    const auto two = bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH,600036.SH");
    const auto head = request(port, two, metered, "HEAD");
    CHECK(head.status == 200);
    CHECK(head.header("X-Credits-Remaining") == "8");
    const auto get = request(port, two, metered, "GET");
    CHECK(get.header("X-Credits-Remaining") == "6");
    CHECK(comparable(head) == comparable(get));
    const auto poor = request(
        port,
        bars_target("2024-01-02", "2024-01-05",
                    "symbol=" + std::string("600519.SH,600036.SH,002594.SZ,000001.SZ,600276.SH")),
        metered, "HEAD");
    CHECK(poor.status == 200);
    CHECK(poor.header("X-Credits-Remaining") == "1");
    const auto broke = request(port, two, metered, "HEAD");
    CHECK(broke.status == 402);
    CHECK(broke.header("X-Credits-Remaining") == "1");
    CHECK(broke.body.empty());
  }
}

TEST_CASE("HTTP: a Range header never truncates a response") {
  const auto port = shared().port();
  const auto full = request(port, k_one, shared().pro.plaintext);
  REQUIRE(full.status == 200);
  const auto raw = raw_exchange(
      port, "GET " + k_one + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + shared().pro.plaintext + "\r\nRange: bytes=0-10\r\nConnection: close\r\n\r\n");
  CHECK(raw.rfind("HTTP/1.1 200 ", 0) == 0);
  const auto body = raw.substr(raw.find("\r\n\r\n") + 4);
  CHECK(raw.find("Content-Range") == std::string::npos);
  CHECK(raw.find("Accept-Ranges: none\r\n") != std::string::npos);
  REQUIRE(nlohmann::json::accept(body));
  auto expected = full.json();
  auto got = nlohmann::json::parse(body);
  expected.erase("request_id");
  got.erase("request_id");
  CHECK(got == expected);
}

TEST_CASE("D10: requests cpp-httplib rejects before routing still get the envelope and an id") {
  const auto port = shared().port();
  const auto long_uri = request(port, "/" + std::string(9000, 'x'), std::nullopt);
  CHECK(long_uri.status == 414);
  CHECK(is_request_id(long_uri.header("X-Request-Id")));
  CHECK(error_code(long_uri) == "INVALID_PARAMETER");
  CHECK(long_uri.json()["error"].size() == 2);

  const auto garbage = raw_exchange(port, "GARBAGE\r\n\r\n");
  CHECK(garbage.rfind("HTTP/1.1 400 ", 0) == 0);
  const auto id_at = garbage.find("\r\nX-Request-Id: ");
  REQUIRE(id_at != std::string::npos);
  CHECK(is_request_id(garbage.substr(id_at + 16, 36)));
  const auto body = garbage.substr(garbage.find("\r\n\r\n") + 4);
  REQUIRE(nlohmann::json::accept(body));
  CHECK(nlohmann::json::parse(body)["error"]["code"] == "INVALID_PARAMETER");
}

TEST_CASE("D10: every response carries a unique X-Request-Id, across processes and restarts") {
  std::set<std::string> seen;
  std::size_t total = 0;
  const auto collect = [&](int port, const std::string& key) {
    const std::vector<std::pair<std::string, std::string>> requests{
        {"GET", "/healthz"},  {"GET", "/v1/openapi.json"},
        {"HEAD", "/healthz"}, {"GET", k_one},
        {"HEAD", k_one},      {"GET", bars_target("2024-01-05", "2024-01-02", "symbol=600519.SH")},
        {"GET", "/nowhere"},  {"DELETE", "/healthz"},
        {"POST", k_one},
    };
    for (int round = 0; round < 3; ++round) {
      for (const auto& [method, target] : requests) {
        CAPTURE(method);
        CAPTURE(target);
        const auto reply = request(port, target, key, method);
        REQUIRE(reply.status != 0);
        REQUIRE(reply.header_count("X-Request-Id") == 1);
        const auto id = reply.header("X-Request-Id");
        CHECK(is_request_id(id));
        if (method == "GET" && target == k_one) {
          CHECK(reply.json()["request_id"] == id);
        }
        seen.insert(id);
        ++total;
      }
      // Without a key too (401).
      const auto unauthorized = request(port, k_one, std::nullopt);
      CHECK(unauthorized.status == 401);
      seen.insert(unauthorized.header("X-Request-Id"));
      ++total;
    }
  };
  collect(shared().port(), shared().pro.plaintext);

  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro");
  {
    ServerProcess first(store);
    ServerProcess second(store);
    collect(first.port(), key.plaintext);
    collect(second.port(), key.plaintext);
  }
  {
    ServerProcess restarted(store);
    collect(restarted.port(), key.plaintext);
  }
  CHECK(total == 4 * 3 * 10);
  CHECK(seen.size() == total);
}

TEST_CASE("serve: one access-log line per request on stderr, and a clean stop on SIGTERM") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", 5, "log");
  ServerProcess server(store);
  // Issue 12: %0A must not forge a line, nor %00 write a NUL: the log holds the path as sent (and
  // escapes any raw control byte, test_server_access_log.cpp).
  const std::vector<std::pair<std::string, std::string>> requests{
      {"GET", k_one},        {"POST", "/healthz"},
      {"GET", "/nowhere"},   {"HEAD", "/healthz"},
      {"GET", "/x%0AGET%20/forged%20200%201us%20id"}, {"GET", "/y%00z%1B[31m"}};
  std::vector<Reply> replies;
  for (const auto& [method, target] : requests) {
    replies.push_back(request(server.port(), target, key.plaintext, method));
  }
  CHECK(server.stop() == 0);
  CHECK(server.process().stdout_text()
        == "listening on http://127.0.0.1:" + std::to_string(server.port()) + "\n");
  const auto lines = split_lines(server.process().stderr_text());
  REQUIRE(lines.size() == requests.size());
  const auto log = server.process().stderr_text();
  CHECK(log.find('\0') == std::string::npos);
  CHECK(log.find('\x1b') == std::string::npos);
  CHECK(log.find("\nGET /forged") == std::string::npos);
  const std::vector<std::string> expected{"GET /v1/ohlc/range/1/day/2024-01-02/2024-01-05 200",
                                          "POST /healthz 405", "GET /nowhere 404",
                                          "HEAD /healthz 200",
                                          // The path as sent, never decoded: nothing to forge with.
                                          "GET /x%0AGET%20/forged%20200%201us%20id 404",
                                          "GET /y%00z%1B[31m 404"};
  // Workers log after answering, so the lines may come in any order: match them by request id.
  std::map<std::string, std::vector<std::string>> by_id;
  for (const auto& line : lines) {
    CAPTURE(line);
    CHECK(line.find(key.plaintext) == std::string::npos);
    const auto cells = words(line); // "METHOD PATH STATUS <micros>us REQUEST_ID"
    REQUIRE(cells.size() == 5);
    by_id[cells[4]] = cells;
  }
  for (std::size_t i = 0; i < replies.size(); ++i) {
    CAPTURE(expected[i]);
    const auto it = by_id.find(replies[i].header("X-Request-Id"));
    REQUIRE(it != by_id.end());
    const auto& cells = it->second;
    CHECK(cells[0] + " " + cells[1] + " " + cells[2] == expected[i]);
    CHECK(cells[3].size() > 2);
    CHECK(cells[3].find_first_not_of("0123456789") == cells[3].size() - 2);
    CHECK(cells[3].substr(cells[3].size() - 2) == "us");
  }
}

TEST_CASE("serve: a bad --listen is a usage error") {
  TestStore store;
  for (const std::string listen :
       {"nonsense", "127.0.0.1", "127.0.0.1:", "127.0.0.1:99999", ":8080"}) {
    CAPTURE(listen);
    const auto bad = store.cli({"serve", "--listen", listen});
    CHECK(bad.status == 2);
    CHECK(bad.out == "");
    CHECK(bad.err
          == "ashare: error: invalid --listen \"" + listen
                 + "\": expected HOST:PORT, e.g. 127.0.0.1:8080\n");
  }
}
