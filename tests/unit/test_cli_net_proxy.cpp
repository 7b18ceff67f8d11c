// cli/net/proxy: which proxy from the environment a URL goes through, and no_proxy's matching.
#include "fake_environment.hpp"

#include "cli/net/proxy.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace ashare::cli;
using namespace ashare::cli::net;

namespace {

Url url(const char* text) {
  return *parse_url(text);
}

} // namespace

TEST_CASE("cli::net::read_proxy_environment: the lowercase variable, else the uppercase one") {
  SUBCASE("lowercase wins") {
    const auto proxies =
        read_proxy_environment(ashare::test::environment_of({{"http_proxy", "http://a:1"},
                                                             {"HTTP_PROXY", "http://b:2"},
                                                             {"https_proxy", "http://c:3"},
                                                             {"HTTPS_PROXY", "http://d:4"},
                                                             {"no_proxy", "x"},
                                                             {"NO_PROXY", "y"}}));
    CHECK(proxies.http_proxy == "http://a:1");
    CHECK(proxies.https_proxy == "http://c:3");
    CHECK(proxies.no_proxy == "x");
  }
  SUBCASE("uppercase alone, or under an empty lowercase one") {
    const auto proxies =
        read_proxy_environment(ashare::test::environment_of({{"HTTP_PROXY", "http://b:2"},
                                                             {"https_proxy", ""},
                                                             {"HTTPS_PROXY", "http://d:4"},
                                                             {"NO_PROXY", "y"}}));
    CHECK(proxies.http_proxy == "http://b:2");
    CHECK(proxies.https_proxy == "http://d:4");
    CHECK(proxies.no_proxy == "y");
  }
  SUBCASE("none") {
    const auto proxies = read_proxy_environment(ashare::test::environment_of({}));
    CHECK(proxies.http_proxy == "");
    CHECK(proxies.https_proxy == "");
    CHECK(proxies.no_proxy == "");
  }
}

TEST_CASE("cli::net::is_proxy_bypassed") {
  struct Row {
    const char* host;
    const char* no_proxy;
    bool bypassed;
  };
  const Row rows[] = {
    {"example.com", "", false},
    {"example.com", "*", true},
    {"127.0.0.1", " * ", true},
    // A name matches itself and its subdomains, with or without a leading dot, in any case.
    {"example.com", "example.com", true},
    {"a.example.com", "example.com", true},
    {"a.b.example.com", "example.com", true},
    {"badexample.com", "example.com", false},
    {"example.com", ".example.com", true},
    {"a.example.com", ".example.com", true},
    {"a.example.com", "*.example.com", true},
    {"example.com.", "EXAMPLE.com", true},
    {"Example.COM", "example.com.", true},
    {"example.org", "example.com", false},
    {"com", "example.com", false},
    // Lists, spaces, ports and empty entries.
    {"b.example", "a.example, b.example ,c.example", true},
    {"d.example", "a.example, b.example ,c.example", false},
    {"b.example", ",,b.example:8080,", true},
    {"b.example", ".", false},
    // Addresses match exactly, in any IPv6 spelling; blocks by their prefix.
    {"127.0.0.1", "127.0.0.1", true},
    {"127.0.0.1", "localhost", false},
    {"127.0.0.12", "127.0.0.1", false},
    {"127.0.0.1", "127.0.0.1:8080", true},
    {"::1", "::1", true},
    {"::1", "[::1]", true},
    {"::1", "[0:0:0:0:0:0:0:1]:443", true},
    {"10.1.2.3", "10.0.0.0/8", true},
    {"11.1.2.3", "10.0.0.0/8", false},
    {"192.168.1.7", "192.168.1.0/24", true},
    {"192.168.2.7", "192.168.1.0/24", false},
    {"10.1.2.3", "0.0.0.0/0", true},
    {"fd00::5", "fd00::/8", true},
    {"fe80::5", "fd00::/8", false},
    {"10.1.2.3", "fd00::/8", false},
    {"10.1.2.3", "10.0.0.0/33", false},
    {"example.com", "10.0.0.0/8", false},
  };
  for (const auto& row : rows) {
    CAPTURE(std::string(row.host));
    CAPTURE(std::string(row.no_proxy));
    CHECK(is_proxy_bypassed(row.host, row.no_proxy) == row.bypassed);
  }
}

TEST_CASE("cli::net::find_proxy: http_proxy for http, https_proxy for https, no_proxy aside") {
  const ProxyEnvironment proxies{"http://plain.proxy:3128", "http://user:pw@tls.proxy:8080",
                                 "internal.example,10.0.0.0/8"};
  SUBCASE("an http URL goes through http_proxy") {
    const auto proxy = find_proxy(url("http://data.example:8080/api"), proxies);
    REQUIRE(proxy.ok());
    REQUIRE(proxy->has_value());
    CHECK((*proxy)->host == "plain.proxy");
    CHECK((*proxy)->port == 3128);
    CHECK((*proxy)->user_info == "");
  }
  SUBCASE("an https URL goes through https_proxy, with its credentials") {
    const auto proxy = find_proxy(url("https://data.example"), proxies);
    REQUIRE(proxy.ok());
    REQUIRE(proxy->has_value());
    CHECK((*proxy)->host == "tls.proxy");
    CHECK((*proxy)->port == 8080);
    CHECK((*proxy)->user_info == "user:pw");
  }
  SUBCASE("no_proxy's hosts connect directly, whatever the scheme") {
    for (const auto* direct : {"http://internal.example", "https://api.internal.example:8443",
                               "http://10.2.3.4:8080"}) {
      CAPTURE(std::string(direct));
      const auto proxy = find_proxy(url(direct), proxies);
      REQUIRE(proxy.ok());
      CHECK_FALSE(proxy->has_value());
    }
  }
  SUBCASE("a scheme without its proxy connects directly") {
    const ProxyEnvironment http_only{"http://plain.proxy:3128", "", ""};
    const auto proxy = find_proxy(url("https://data.example"), http_only);
    REQUIRE(proxy.ok());
    CHECK_FALSE(proxy->has_value());
    const ProxyEnvironment https_only{"", "http://tls.proxy", ""};
    const auto plain = find_proxy(url("http://data.example"), https_only);
    REQUIRE(plain.ok());
    CHECK_FALSE(plain->has_value());
  }
  SUBCASE("a proxy without a scheme or port: http, port 80") {
    const ProxyEnvironment bare{"proxy.lan", "", ""};
    const auto proxy = find_proxy(url("http://data.example"), bare);
    REQUIRE(proxy.ok());
    REQUIRE(proxy->has_value());
    CHECK((*proxy)->scheme == Scheme::http);
    CHECK((*proxy)->host == "proxy.lan");
    CHECK((*proxy)->port == 80);
  }
  SUBCASE("a malformed or TLS proxy is an error naming the variable") {
    const ProxyEnvironment bad{"http://proxy.lan:99999", "https://tls.proxy", ""};
    const auto plain = find_proxy(url("http://data.example"), bad);
    REQUIRE_FALSE(plain.ok());
    CHECK(plain.error().message
          == "http_proxy: invalid URL \"http://proxy.lan:99999\": the port must be a whole number "
             "from 1 to 65535");
    const auto tls = find_proxy(url("https://data.example"), bad);
    REQUIRE_FALSE(tls.ok());
    CHECK(tls.error().message
          == "https_proxy \"https://tls.proxy\": only a proxy spoken to in plain HTTP (http://) is "
             "supported");
  }
}
