// Issue 13: `serve` warns when it would speak plain HTTP to other machines. Tests bind 127.0.0.1
// only, so the check itself is tested here.
#include "cli/listen_address.hpp"

#include <doctest/doctest.h>

using namespace ashare::cli;

TEST_CASE("cli::parse_listen") {
  const auto v4 = parse_listen("127.0.0.1:8080");
  REQUIRE(v4.has_value());
  CHECK(v4->host == "127.0.0.1");
  CHECK(v4->port == 8080);
  const auto v6 = parse_listen("[::1]:0");
  REQUIRE(v6.has_value());
  CHECK(v6->host == "::1");
  CHECK(v6->port == 0);
  CHECK(parse_listen("localhost:65535")->port == 65535);
  for (const auto* bad : {"127.0.0.1", ":8080", "127.0.0.1:", "127.0.0.1:65536", "h:8o80",
                          "h:123456", ""}) {
    CAPTURE(std::string(bad));
    CHECK_FALSE(parse_listen(bad).has_value());
  }
}

TEST_CASE("cli::is_loopback_host: only addresses no other machine can reach") {
  for (const auto* host : {"127.0.0.1", "127.1.2.3", "127.255.255.254", "::1",
                           "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost"}) {
    CAPTURE(std::string(host));
    CHECK(is_loopback_host(host));
  }
  for (const auto* host : {"0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "128.0.0.1",
                           "::ffff:10.0.0.1", "fe80::1", "example.com", "localhost.example.com",
                           "127.0.0.1.example.com", ""}) {
    CAPTURE(std::string(host));
    CHECK_FALSE(is_loopback_host(host));
  }
}

TEST_CASE("cli::plaintext_warning: plain HTTP on a reachable address, and only then") {
  CHECK_FALSE(plaintext_warning({"127.0.0.1", 8080}, false).has_value());
  CHECK_FALSE(plaintext_warning({"::1", 8080}, false).has_value());
  CHECK_FALSE(plaintext_warning({"0.0.0.0", 8443}, true).has_value());
  const auto warning = plaintext_warning({"0.0.0.0", 8080}, false);
  REQUIRE(warning.has_value());
  CHECK(*warning
        == "serving plain HTTP on 0.0.0.0, which other machines can reach: API keys and data "
           "cross the network unencrypted; add --tls-cert and --tls-key, or put a TLS proxy in "
           "front");
}
