// cli/net/http_session: the network module's HTTP client against scripted peers on 127.0.0.1:
// what goes on the wire, keep-alive (a 304 included), reconnection, gzip, deadlines, proxies.
#include "cli/net/http_session.hpp"

#include "server/gzip.hpp"

#include "loopback_peer.hpp"

#include "support/wait.hpp"

#include <doctest/doctest.h>
#include <future>
#include <memory>

using namespace ashare::cli::net;
using ashare::test::LoopbackPeer;
using namespace std::chrono_literals;

namespace {

struct SessionCloser {
  void operator()(HttpSession* session) const { close_http_session(session); }
};
using Session = std::unique_ptr<HttpSession, SessionCloser>;

Session open(HttpSettings settings) {
  auto opened = open_http_session(settings);
  if (const auto* failure = std::get_if<Failure>(&opened)) {
    FAIL(failure->reason);
  }
  return Session(std::get<HttpSession*>(opened));
}

Session open(const std::string& base_url, std::chrono::milliseconds timeout = 5s) {
  return open(HttpSettings{base_url, timeout, std::nullopt, {}});
}

HttpResponse answered(HttpOutcome outcome) {
  if (const auto* failure = std::get_if<Failure>(&outcome)) {
    FAIL(failure->reason);
  }
  return std::get<HttpResponse>(std::move(outcome));
}

std::string failed(const HttpOutcome& outcome) {
  REQUIRE(std::holds_alternative<Failure>(outcome));
  return std::get<Failure>(outcome).reason;
}

HttpRequest get(std::string target, std::vector<Header> headers = {}) {
  return HttpRequest{"GET", std::move(target), std::move(headers), "", true};
}

std::string ok(const std::string& body) {
  return LoopbackPeer::answer(200, "Content-Type: application/json\r\n", body);
}

// The request line and each header line of a recorded head.
std::vector<std::string> lines_of(const std::string& head) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (auto end = head.find("\r\n"); end != std::string::npos && end != start;
       end = head.find("\r\n", start)) {
    out.push_back(head.substr(start, end - start));
    start = end + 2;
  }
  return out;
}

bool has_line(const std::string& head, const std::string& line) {
  const auto lines = lines_of(head);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

} // namespace

TEST_CASE("net::exchange: the request on the wire") {
  LoopbackPeer peer([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{ok("{}")}; });
  SUBCASE("GET under the base URL's path, with gzip asked for and the caller's headers") {
    auto session = open(peer.url() + "/api/");
    const auto response =
      answered(exchange(*session, get("/v1/x?symbol=600519.SH", {{"Authorization", "Bearer k"}})));
    CHECK(response.status == 200);
    CHECK(response.body == "{}");
    const auto head = peer.requests().at(0).head;
    CAPTURE(head);
    CHECK(lines_of(head).at(0) == "GET /api/v1/x?symbol=600519.SH HTTP/1.1");
    CHECK(has_line(head, "Host: 127.0.0.1:" + std::to_string(peer.port())));
    CHECK(has_line(head, "Accept-Encoding: gzip"));
    CHECK(has_line(head, "Authorization: Bearer k"));
    CHECK(has_line(head, "User-Agent: ashare/" ASHARE_VERSION));
    CHECK(head.find("Content-Length") == std::string::npos);
    CHECK(head.find("Connection") == std::string::npos); // HTTP/1.1 keeps it alive
  }
  SUBCASE("POST with a JSON body (a data source's API)") {
    auto session = open(peer.url());
    const HttpRequest post{"POST", "/", {{"Content-Type", "application/json"}},
                           R"({"api_name":"daily"})", false};
    CHECK(answered(exchange(*session, post)).status == 200);
    const auto request = peer.requests().at(0);
    CHECK(lines_of(request.head).at(0) == "POST / HTTP/1.1");
    CHECK(has_line(request.head, "Content-Length: 20"));
    CHECK(has_line(request.head, "Content-Type: application/json"));
    CHECK(request.head.find("Accept-Encoding") == std::string::npos);
    CHECK(request.body == R"({"api_name":"daily"})");
  }
}

TEST_CASE("net::exchange: keep-alive, a 304 without a body included") {
  // The answers of a revalidation (D17): a 200 with an ETag, then a 304 that has neither a body
  // nor a Content-Length (RFC 9110 8.6) on the same connection, then another 200.
  const std::string etag = "\"abc\"";
  LoopbackPeer peer([&](const LoopbackPeer::Request&, int index) {
    if (index == 1) {
      return LoopbackPeer::Answer{"HTTP/1.1 304 Not Modified\r\nETag: " + etag + "\r\n\r\n"};
    }
    return LoopbackPeer::Answer{
      LoopbackPeer::answer(200, "ETag: " + etag + "\r\n", "body " + std::to_string(index))};
  });
  // A client that read the 304's body until the connection closed would wait out this deadline
  // (the peer keeps the connection open) and fail.
  auto session = open(peer.url(), 10s);
  CHECK(answered(exchange(*session, get("/a"))).body == "body 0");
  const auto revalidated = answered(exchange(*session, get("/a", {{"If-None-Match", etag}})));
  CHECK(revalidated.status == 304);
  CHECK(revalidated.body == "");
  CHECK(find_header(revalidated.headers, "etag") == etag);
  CHECK(answered(exchange(*session, get("/b"))).body == "body 2");
  CHECK(peer.connections() == 1);
  const auto requests = peer.requests();
  REQUIRE(requests.size() == 3);
  CHECK(has_line(requests[1].head, "If-None-Match: " + etag));
  for (const auto& request : requests) {
    CHECK(request.connection == 1);
  }
}

TEST_CASE("net::exchange: HEAD, chunked bodies and interim answers") {
  LoopbackPeer peer([](const LoopbackPeer::Request& request, int) {
    if (request.head.starts_with("HEAD")) {
      return LoopbackPeer::Answer{"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"};
    }
    if (request.head.starts_with("GET /chunked")) {
      return LoopbackPeer::Answer{
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"};
    }
    return LoopbackPeer::Answer{"HTTP/1.1 100 Continue\r\n\r\n" + ok("after 100")};
  });
  auto session = open(peer.url());
  const auto head = answered(exchange(*session, HttpRequest{"HEAD", "/h", {}, "", true}));
  CHECK(head.status == 200);
  CHECK(head.body == "");
  CHECK(answered(exchange(*session, get("/chunked"))).body == "abcde");
  const auto after = answered(exchange(*session, get("/interim")));
  CHECK(after.status == 200);
  CHECK(after.body == "after 100");
  CHECK(peer.connections() == 1);
}

TEST_CASE("net::exchange: connections the server closes") {
  SUBCASE("Connection: close: the next request opens a new connection") {
    LoopbackPeer peer([](const LoopbackPeer::Request&, int) {
      return LoopbackPeer::Answer{LoopbackPeer::answer(200, "Connection: close\r\n", "x"), true};
    });
    auto session = open(peer.url());
    CHECK(answered(exchange(*session, get("/1"))).body == "x");
    CHECK(answered(exchange(*session, get("/2"))).body == "x");
    CHECK(peer.connections() == 2);
  }
  SUBCASE("closed while idle, without a word: the next request opens a new connection") {
    LoopbackPeer peer([](const LoopbackPeer::Request&, int) {
      return LoopbackPeer::Answer{ok("x"), true};
    });
    auto session = open(peer.url());
    CHECK(answered(exchange(*session, get("/1"))).body == "x");
    REQUIRE(ashare::test::poll_until([&] { return peer.close_reached_client(); }));
    CHECK(answered(exchange(*session, get("/2"))).body == "x");
    CHECK(peer.connections() == 2);
  }
  SUBCASE("closed as a GET arrived on a kept-alive connection: sent once more, on a new one") {
    LoopbackPeer peer([](const LoopbackPeer::Request&, int index) {
      return index == 1 ? LoopbackPeer::Answer{"", true} : LoopbackPeer::Answer{ok("x")};
    });
    auto session = open(peer.url());
    CHECK(answered(exchange(*session, get("/1"))).body == "x");
    CHECK(answered(exchange(*session, get("/2"))).body == "x");
    CHECK(peer.connections() == 2);
    const auto requests = peer.requests();
    REQUIRE(requests.size() == 3);
    CHECK(lines_of(requests[2].head).at(0) == "GET /2 HTTP/1.1");
    CHECK(requests[2].connection == 2);
  }
  SUBCASE("the same for a POST is a failure: it may have been acted on") {
    LoopbackPeer peer([](const LoopbackPeer::Request&, int index) {
      return index == 1 ? LoopbackPeer::Answer{"", true} : LoopbackPeer::Answer{ok("x")};
    });
    auto session = open(peer.url());
    CHECK(answered(exchange(*session, get("/1"))).body == "x");
    const auto reason = failed(exchange(*session, HttpRequest{"POST", "/", {}, "{}", false}));
    CHECK(reason == "waiting for the answer: the connection was closed");
    CHECK(peer.requests().size() == 2);
    CHECK(answered(exchange(*session, get("/3"))).body == "x"); // and the session goes on
  }
}

TEST_CASE("net::exchange: gzip bodies are inflated") {
  std::string json(5000, 'x');
  LoopbackPeer peer([&](const LoopbackPeer::Request& request, int) {
    if (request.head.starts_with("GET /corrupt")) {
      return LoopbackPeer::Answer{LoopbackPeer::answer(200, "Content-Encoding: gzip\r\n", "nope")};
    }
    return LoopbackPeer::Answer{
      LoopbackPeer::answer(200, "Content-Encoding: gzip\r\n", ashare::server::gzip(json))};
  });
  auto session = open(peer.url());
  const auto response = answered(exchange(*session, get("/")));
  CHECK(response.body == json);
  CHECK(find_header(response.headers, "Content-Encoding") == "gzip");
  CHECK(failed(exchange(*session, get("/corrupt")))
        == "the answer's gzip body is corrupt or too large");
}

TEST_CASE("net::exchange: failures, and the words for them") {
  SUBCASE("nothing listens") {
    int port = 0;
    {
      LoopbackPeer closed([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{}; });
      port = closed.port();
    }
    auto session = open("http://127.0.0.1:" + std::to_string(port));
    CHECK(failed(exchange(*session, get("/"))) == "connection refused");
  }
  SUBCASE("no answer within the deadline") {
    LoopbackPeer peer([](const LoopbackPeer::Request&, int) {
      return LoopbackPeer::Answer{"", false, true};
    });
    auto session = open(peer.url(), 300ms);
    const auto start = std::chrono::steady_clock::now();
    auto exchanged = std::async(std::launch::async, [&] { return exchange(*session, get("/")); });
    const bool returned =
      exchanged.wait_for(ashare::test::k_patience) == std::future_status::ready;
    if (!returned) {
      peer.stop(); // its silence ends, and so does the exchange: the test does not hang
    }
    REQUIRE(returned);
    // Not before the deadline (which a slow machine cannot make earlier): it was waited out.
    CHECK(std::chrono::steady_clock::now() - start >= 250ms);
    CHECK(failed(exchanged.get()) == "timed out waiting for the answer after 0.3 s");
  }
  SUBCASE("a malformed base URL, proxy or CA file cannot be opened, and is not worth retrying") {
    const HttpSettings rows[] = {
      {"ftp://h", 1s, std::nullopt, {}},
      {"http://h", 1s, std::nullopt, {"http://proxy:0", "", ""}},
      {"https://h", 1s, std::string("/nonexistent/ca.pem"), {}},
    };
    for (const auto& settings : rows) {
      CAPTURE(settings.base_url);
      const auto opened = open_http_session(settings);
      REQUIRE(std::holds_alternative<Failure>(opened));
      CHECK_FALSE(std::get<Failure>(opened).retryable);
    }
    const auto ca = open_http_session(rows[2]);
    CHECK(std::get<Failure>(ca).reason.starts_with(
      "cannot load the CA certificates \"/nonexistent/ca.pem\": "));
  }
}

TEST_CASE("net::exchange: through a proxy from the environment") {
  SUBCASE("http: the whole URL in the request line, to the proxy, kept alive") {
    LoopbackPeer proxy([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{ok("p")}; });
    auto session = open(HttpSettings{"http://remote.invalid:8080/api", 5s, std::nullopt,
                                     ProxyEnvironment{proxy.url(), "", ""}});
    CHECK(answered(exchange(*session, get("/healthz"))).body == "p");
    CHECK(answered(exchange(*session, get("/v1/x?a=1"))).body == "p");
    const auto requests = proxy.requests();
    REQUIRE(requests.size() == 2);
    CHECK(lines_of(requests[0].head).at(0) == "GET http://remote.invalid:8080/api/healthz HTTP/1.1");
    CHECK(has_line(requests[0].head, "Host: remote.invalid:8080"));
    CHECK(requests[0].head.find("Proxy-Authorization") == std::string::npos);
    CHECK(lines_of(requests[1].head).at(0) == "GET http://remote.invalid:8080/api/v1/x?a=1 HTTP/1.1");
    CHECK(proxy.connections() == 1);
  }
  SUBCASE("http: the proxy's credentials, decoded, as Basic") {
    LoopbackPeer proxy([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{ok("p")}; });
    const auto with_user = "http://al%40ice:s3cret@127.0.0.1:" + std::to_string(proxy.port());
    auto session = open(HttpSettings{"http://remote.invalid", 5s, std::nullopt,
                                     ProxyEnvironment{with_user, "", ""}});
    CHECK(answered(exchange(*session, get("/"))).status == 200);
    const auto head = proxy.requests().at(0).head;
    CHECK(lines_of(head).at(0) == "GET http://remote.invalid/ HTTP/1.1");
    CHECK(has_line(head, "Host: remote.invalid"));
    CHECK(has_line(head, "Proxy-Authorization: Basic YWxAaWNlOnMzY3JldA==")); // al@ice:s3cret
  }
  SUBCASE("https: a CONNECT to the host and port; a refusal is the proxy's failure") {
    LoopbackPeer proxy([](const LoopbackPeer::Request&, int) {
      return LoopbackPeer::Answer{
        "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n", true};
    });
    auto session = open(HttpSettings{"https://remote.invalid/api", 5s, std::nullopt,
                                     ProxyEnvironment{"", proxy.url(), ""}});
    CHECK(failed(exchange(*session, get("/healthz")))
          == "proxy 127.0.0.1:" + std::to_string(proxy.port())
               + ": refused to CONNECT to remote.invalid:443: HTTP 407 Proxy Authentication "
                 "Required");
    const auto head = proxy.requests().at(0).head;
    CHECK(lines_of(head).at(0) == "CONNECT remote.invalid:443 HTTP/1.1");
    CHECK(has_line(head, "Host: remote.invalid:443"));
  }
  SUBCASE("no_proxy: straight to the server") {
    LoopbackPeer proxy([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{ok("p")}; });
    LoopbackPeer server([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{ok("s")}; });
    auto session = open(HttpSettings{server.url(), 5s, std::nullopt,
                                     ProxyEnvironment{proxy.url(), proxy.url(), "127.0.0.1"}});
    CHECK(answered(exchange(*session, get("/"))).body == "s");
    CHECK(proxy.requests().empty());
  }
  SUBCASE("a proxy that cannot be reached is named") {
    int port = 0;
    {
      LoopbackPeer closed([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{}; });
      port = closed.port();
    }
    const auto proxy_url = "http://127.0.0.1:" + std::to_string(port);
    auto session = open(HttpSettings{"http://remote.invalid", 5s, std::nullopt,
                                     ProxyEnvironment{proxy_url, "", ""}});
    CHECK(failed(exchange(*session, get("/")))
          == "proxy 127.0.0.1:" + std::to_string(port) + ": connection refused");
  }
}
