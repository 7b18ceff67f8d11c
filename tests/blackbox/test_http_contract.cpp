// The HTTP contract of `ashare serve` over raw sockets (issue 9): any method token reaches the
// router (D10), HEAD, pipelining and keep-alive without a request cap, the limits of a request
// head and of a body, the path split before it is decoded (D2), gzip (D17), and what happens to
// the connection after each.
#include "fixtures.hpp"
#include "raw_http.hpp"

#include <doctest/doctest.h>

using namespace bb;
using nlohmann::json;

namespace {

// Check that `response` is `status` with the error envelope of `code` and a request id.
void check_envelope(const RawResponse& response, int status, const std::string& code) {
  CHECK(response.status == status);
  CHECK(is_request_id(response.header("X-Request-Id")));
  CHECK(response.header("Content-Type").rfind("application/json", 0) == 0);
  REQUIRE(json::accept(response.body));
  const auto body = json::parse(response.body);
  CHECK(body["error"]["code"] == code);
  CHECK_FALSE(body["error"]["message"].get<std::string>().empty());
  CHECK(body.size() == 1);
}

const std::string k_bars = bars_target("2024-01-01", "2024-12-31", "symbol=600519.SH");

} // namespace

TEST_CASE("HTTP: any method token reaches the router (D10)") {
  const auto port = shared().port();
  for (const std::string method : {"FOO", "M-SEARCH", "PROPFIND", "BREW", "get", "PATCH"}) {
    CAPTURE(method);
    RawConnection connection(port);
    REQUIRE(connection.send(raw_request("/healthz", shared().pro.plaintext, "", method)));
    const auto known = connection.read_response(k_wait);
    REQUIRE(known);
    check_envelope(*known, 405, "METHOD_NOT_ALLOWED");
    CHECK(known->header("Allow") == "GET, HEAD");
    CHECK(known->header_count("Allow") == 1);
    // The connection stays open for the next request.
    REQUIRE(connection.send(raw_request("/nowhere", std::nullopt, "", method)));
    const auto unknown = connection.read_response(k_wait);
    REQUIRE(unknown);
    check_envelope(*unknown, 404, "NOT_FOUND");
    CHECK(unknown->header_count("Allow") == 0);
  }
}

TEST_CASE("HTTP: HEAD sends GET's status, headers and Content-Length, and no body (D10)") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  for (const std::string& target : {std::string("/healthz"), k_bars, std::string("/nowhere")}) {
    for (const std::string encoding : {"", "Accept-Encoding: gzip\r\n"}) {
      CAPTURE(target);
      CAPTURE(encoding);
      RawConnection connection(port);
      REQUIRE(connection.send(raw_request(target, key, encoding, "GET")));
      const auto full = connection.read_response(k_wait);
      REQUIRE(full);
      REQUIRE(connection.send(raw_request(target, key, encoding, "HEAD")));
      const auto head = connection.read_response(k_wait, true);
      REQUIRE(head);
      CHECK(head->status == full->status);
      if (encoding.empty()) {
        CHECK(head->header("Content-Length") == std::to_string(full->body.size()));
      } else {
        // Compressed, the length moves with the random request id inside: by a few bytes.
        const auto length = std::stol(head->header("Content-Length"));
        CHECK(std::labs(length - static_cast<long>(full->body.size())) < 32);
      }
      CHECK(head->header("Content-Encoding") == full->header("Content-Encoding"));
      CHECK(head->header("Content-Type") == full->header("Content-Type"));
      // Nothing follows the head: the next response starts right after it.
      REQUIRE(connection.send(raw_request("/healthz")));
      const auto next = connection.read_response(k_wait);
      REQUIRE(next);
      CHECK(next->status == 200);
      CHECK(connection.pending().empty());
    }
  }
}

TEST_CASE("HTTP: pipelined requests are all answered, in order") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  RawConnection connection(port);
  std::string batch;
  std::vector<std::string> froms;
  for (int month = 1; month <= 12; ++month) {
    const std::string from = "2024-" + std::string(month < 10 ? "0" : "") + std::to_string(month)
                             + "-01";
    froms.push_back(from);
    batch += raw_request(bars_target(from, "2024-12-31", "symbol=600519.SH&limit=3"), key);
    batch += raw_request("/nowhere");
  }
  batch += raw_request("/healthz", std::nullopt, "", "HEAD");
  REQUIRE(connection.send(batch)); // one write
  std::set<std::string> ids;
  for (const auto& from : froms) {
    CAPTURE(from);
    const auto bars = connection.read_response(k_wait);
    REQUIRE(bars);
    CHECK(bars->status == 200);
    CHECK(json::parse(bars->body)["from"] == from);
    ids.insert(bars->header("X-Request-Id"));
    const auto missing = connection.read_response(k_wait);
    REQUIRE(missing);
    CHECK(missing->status == 404);
    ids.insert(missing->header("X-Request-Id"));
  }
  const auto head = connection.read_response(k_wait, true);
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(ids.size() == 2 * froms.size());
  CHECK(connection.pending().empty());
}

TEST_CASE("HTTP: keep-alive has no request cap") {
  RawConnection connection(shared().port());
  for (int i = 0; i < 300; ++i) {
    REQUIRE(connection.send(raw_request("/healthz")));
    const auto response = connection.read_response(k_wait);
    REQUIRE(response);
    REQUIRE(response->status == 200);
    REQUIRE(response->header("Connection") != "close");
  }
}

TEST_CASE("HTTP: a head beyond the limits, a body on GET or HEAD, or a malformed request") {
  const auto port = shared().port();
  struct Case {
    std::string name;
    std::string raw;
    int status;
    bool head_only = false;
  };
  std::string many_fields;
  for (int i = 0; i < 101; ++i) {
    many_fields += "X-Field-" + std::to_string(i) + ": " + std::to_string(i) + "\r\n";
  }
  const std::vector<Case> cases{
      {"request line over 8 KiB", raw_request("/" + std::string(8200, 'x')), 414},
      {"request line over 8 KiB without its end", "GET /" + std::string(20000, 'x'), 414},
      {"header fields over 8 KiB",
       raw_request("/healthz", std::nullopt, "X-Big: " + std::string(8300, 'b') + "\r\n"), 431},
      {"more than 100 header fields", raw_request("/healthz", std::nullopt, many_fields), 431},
      {"a body on GET", raw_request("/healthz", std::nullopt, "Content-Length: 5\r\n") + "hello",
       413},
      {"a chunked body on GET",
       raw_request("/healthz", std::nullopt, "Transfer-Encoding: chunked\r\n")
           + "5\r\nhello\r\n0\r\n\r\n",
       413},
      {"a body on HEAD",
       raw_request("/healthz", std::nullopt, "Content-Length: 2\r\n", "HEAD") + "hi", 413, true},
      {"garbage", "GARBAGE\r\n\r\n", 400},
      {"a header line without a colon", "GET /healthz HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400},
      {"a bad version", "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 400},
      {"HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", 400},
      {"a bad Content-Length", raw_request("/healthz", std::nullopt, "Content-Length: x\r\n"), 400},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    RawConnection connection(port);
    connection.send(c.raw); // the server may close before it has read everything
    const auto response = connection.read_response(k_wait, c.head_only);
    REQUIRE(response);
    CHECK(response->status == c.status);
    CHECK(response->header("Connection") == "close");
    CHECK(is_request_id(response->header("X-Request-Id")));
    if (!c.head_only) {
      check_envelope(*response, c.status, "INVALID_PARAMETER");
    } else {
      CHECK(response->header("Content-Length") != "0");
    }
    CHECK(connection.closed_within(k_wait));
  }
  SUBCASE("what stays within the limits is answered") {
    std::string hundred_fields;
    for (int i = 0; i < 99; ++i) { // with Host: 100
      hundred_fields += "X-Field-" + std::to_string(i) + ": " + std::to_string(i) + "\r\n";
    }
    for (const auto& raw :
         {raw_request("/healthz", std::nullopt, "Content-Length: 0\r\n"),
          raw_request("/healthz", std::nullopt, hundred_fields),
          raw_request("/healthz?" + std::string(8000, 'q')),
          raw_request("/healthz", std::nullopt, "X-Big: " + std::string(8000, 'b') + "\r\n"),
          std::string("GET /healthz HTTP/1.0\r\n\r\n")}) {
      RawConnection connection(port);
      REQUIRE(connection.send(raw));
      const auto response = connection.read_response(k_wait);
      REQUIRE(response);
      CHECK(response->status == 200);
    }
  }
}

TEST_CASE("HTTP: HTTP/1.0 and Connection: close end the connection after the response") {
  const auto port = shared().port();
  for (const std::string& raw : {std::string("GET /healthz HTTP/1.0\r\n\r\n"),
                                 raw_request("/healthz", std::nullopt, "Connection: close\r\n")}) {
    RawConnection connection(port);
    REQUIRE(connection.send(raw));
    const auto response = connection.read_response(k_wait);
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK(connection.closed_within(k_wait));
  }
  RawConnection kept(port);
  REQUIRE(kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  const auto response = kept.read_response(k_wait);
  REQUIRE(response);
  CHECK(response->header("Connection") == "keep-alive");
  REQUIRE(kept.send("GET /healthz HTTP/1.0\r\n\r\n"));
  CHECK(kept.read_response(k_wait));
}

TEST_CASE("D2: the path is split into segments before each is percent-decoded") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  const auto slashed = request(
      port, "/v1/ohlc/range/1/day/2024%2F06%2F01/2024-06-30?symbol=600519.SH", key);
  check_error(slashed, 400, "INVALID_PARAMETER");
  CHECK(slashed.json()["error"]["message"].get<std::string>().find("from") != std::string::npos);
  CHECK(slashed.json()["error"]["message"].get<std::string>().find("2024/06/01")
        != std::string::npos);
  const auto encoded =
      request(port, "/v1/ohlc/range/1/day/2024%2D06%2D03/2024-06-30?symbol=600519.SH", key);
  CHECK(encoded.status == 200);
  CHECK(encoded.json()["from"] == "2024-06-03");
  CHECK(request(port, "/heal%74hz").status == 200);
  CHECK(request(port, "/healthz%2F").status == 404); // one segment "healthz/"
}

TEST_CASE("D17: gzip when the client accepts it, the same JSON inside") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  RawConnection connection(port);
  REQUIRE(connection.send(raw_request(k_bars, key)));
  const auto plain = connection.read_response(k_wait);
  REQUIRE(plain);
  CHECK(plain->header("Content-Encoding").empty());
  CHECK(plain->header("Vary") == "Accept-Encoding");
  CHECK(plain->header("Accept-Ranges") == "none");
  for (const std::string accept : {"gzip", "deflate, gzip;q=0.5", "*", "br, GZIP"}) {
    CAPTURE(accept);
    REQUIRE(connection.send(raw_request(k_bars, key, "Accept-Encoding: " + accept + "\r\n")));
    const auto zipped = connection.read_response(k_wait);
    REQUIRE(zipped);
    CHECK(zipped->header("Content-Encoding") == "gzip");
    CHECK(zipped->header("Vary") == "Accept-Encoding");
    CHECK(zipped->body.size() < plain->body.size() / 2);
    CHECK(without_request_id(gunzip(zipped->body)) == without_request_id(plain->body));
  }
  for (const std::string accept : {"gzip;q=0", "identity", "br", "gzip;q=0, *"}) {
    CAPTURE(accept);
    REQUIRE(connection.send(raw_request(k_bars, key, "Accept-Encoding: " + accept + "\r\n")));
    const auto refused = connection.read_response(k_wait);
    REQUIRE(refused);
    CHECK(refused->header("Content-Encoding").empty());
  }
  // A small body stays plain.
  REQUIRE(connection.send(raw_request("/healthz", std::nullopt, "Accept-Encoding: gzip\r\n")));
  const auto health = connection.read_response(k_wait);
  REQUIRE(health);
  CHECK(health->header("Content-Encoding").empty());
  CHECK(json::accept(health->body));
}
