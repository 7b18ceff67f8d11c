// Remote mode's calls (remote::get) and retries (remote::retry_policy) over a scripted gateway
// and a fake clock: what `ashare` in remote mode waits and says when the remote fails (exit 3).
#include "fetch_fakes.hpp"
#include "testutil.hpp"

#include "core/remote/calls.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using namespace std::chrono_literals;

namespace {

// Return the message of the Unreachable that remote::get throws through `gateway`, or "" when
// it returns a reply.
std::string unreachable_message(http::Gateway& gateway) {
  try {
    remote::get(gateway, "/healthz");
  } catch (const remote::Unreachable& failure) {
    return failure.what();
  }
  return "";
}

} // namespace

TEST_CASE("remote::get: a GET of the target, conditional when given a tag, a failure thrown") {
  test::ScriptedGateway gateway;
  gateway.then("{}", 200);
  CHECK(remote::get(gateway, "/healthz").body == "{}");
  gateway.then("", 304);
  CHECK(remote::get(gateway, "/v1/x", "W/\"1\"").status == 304);
  REQUIRE(gateway.calls.size() == 2);
  CHECK(gateway.calls[0].method == http::Method::get);
  CHECK(gateway.calls[0].headers.empty());
  REQUIRE(gateway.calls[1].headers.size() == 1);
  CHECK(gateway.calls[1].headers[0].name == "If-None-Match");
  CHECK(gateway.calls[1].headers[0].value == "W/\"1\"");
  gateway.then_fail("http://remote.test: connection refused");
  CHECK(unreachable_message(gateway) == "http://remote.test: connection refused");
}

TEST_CASE("remote::retry_policy: network failures and 5xx retried with a doubling backoff") {
  test::FakeClock clock;
  test::ScriptedGateway network;
  http::RetryingGateway gateway(network, clock,
                                remote::retry_policy(test::k_remote_base_url, 3, 500ms));

  SUBCASE("a 5xx that passes: the reply after the waits") {
    network.then_fail(test::k_remote_base_url + ": connection refused");
    network.then("", 503);
    network.then("{}", 200);
    CHECK(remote::get(gateway, "/healthz").status == 200);
    CHECK(clock.slept == std::vector<std::chrono::milliseconds>{500ms, 1000ms});
  }

  SUBCASE("a 4xx is the remote's answer, not retried") {
    network.then("{}", 404);
    CHECK(remote::get(gateway, "/healthz").status == 404);
    CHECK(clock.slept.empty());
  }

  SUBCASE("5xx after every retry: kept failing, with the remote's error envelope") {
    for (int i = 0; i < 4; ++i) {
      network.then(R"({"status":"ERROR","error":{"code":"INTERNAL_ERROR","message":"boom"}})", 500);
    }
    CHECK(unreachable_message(gateway)
          == "http://remote.test kept failing after 4 attempts: HTTP 500 INTERNAL_ERROR: boom");
    CHECK(clock.slept == std::vector<std::chrono::milliseconds>{500ms, 1000ms, 2000ms});
    CHECK(network.calls.size() == 4);
  }

  SUBCASE("a 5xx without an envelope says its status alone") {
    for (int i = 0; i < 4; ++i) {
      network.then("<html>bad gateway</html>", 502);
    }
    CHECK(unreachable_message(gateway) == "http://remote.test kept failing after 4 attempts: HTTP 502");
  }

  SUBCASE("a network failure after every retry: cannot reach") {
    for (int i = 0; i < 4; ++i) {
      network.then_fail(test::k_remote_base_url + ": timed out");
    }
    CHECK(unreachable_message(gateway) == "cannot reach http://remote.test: timed out");
    CHECK(clock.slept.size() == 3);
  }

  SUBCASE("a failure that trying again cannot help: cannot reach, at once") {
    network.then_fail(test::k_remote_base_url + ": cannot read the CA file", false);
    CHECK(unreachable_message(gateway) == "cannot reach http://remote.test: cannot read the CA file");
    CHECK(clock.slept.empty());
    CHECK(network.calls.size() == 1);
  }
}
