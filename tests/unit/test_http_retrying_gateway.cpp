// http::RetryingGateway over a scripted gateway and a fake clock: every wait pinned, none slept.
#include "fetch_fakes.hpp"

#include "core/http/retrying_gateway.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using namespace std::chrono_literals;

namespace {

// A policy that retries a failure and a 5xx, resends a 429 at once, gives up on a failure that
// is not retryable, and keeps anything else; it records what it is told.
struct Recorded {
  std::vector<std::string> retried; // "<backoff ms> <why>", each on_retry
  int gave_up_after = 0;

  http::RetryPolicy policy(int retries, std::chrono::milliseconds backoff) {
    using Kind = http::Verdict::Kind;
    http::RetryPolicy out{retries, backoff, {}, {}};
    out.judge = [](const http::Outcome& outcome) -> http::Verdict {
      if (const auto* failure = std::get_if<http::Failure>(&outcome)) {
        return {failure->retryable ? Kind::retry : Kind::give_up, failure->message};
      }
      const auto status = std::get<http::Reply>(outcome).status;
      if (status == 429) {
        return {Kind::resend};
      }
      return {status >= 500 ? Kind::retry : Kind::keep, "HTTP " + std::to_string(status)};
    };
    out.give_up = [this](const http::Outcome&, int tries, const std::string& why) {
      gave_up_after = tries;
      return http::Failure{"gave up after " + std::to_string(tries) + ": " + why, false};
    };
    out.on_retry = [this](std::chrono::milliseconds wait, const std::string& why) {
      retried.push_back(std::to_string(wait.count()) + " " + why);
    };
    return out;
  }
};

const http::Call k_call{http::Method::get, "/healthz", {}, {}};

} // namespace

TEST_CASE("http::RetryingGateway") {
  test::FakeClock clock;
  test::ScriptedGateway inner;
  Recorded recorded;

  SUBCASE("a kept reply comes back at once: no wait") {
    inner.then("ok");
    http::RetryingGateway gateway(inner, clock, recorded.policy(3, 500ms));
    const auto outcome = gateway.send(k_call);
    REQUIRE(std::holds_alternative<http::Reply>(outcome));
    CHECK(std::get<http::Reply>(outcome).body == "ok");
    CHECK(clock.slept.empty());
    CHECK(inner.calls.size() == 1);
    CHECK(inner.calls[0].target == "/healthz");
  }

  SUBCASE("retries wait a backoff that doubles, then the call passes") {
    inner.then_fail("refused");
    inner.then("", 503);
    inner.then("ok");
    http::RetryingGateway gateway(inner, clock, recorded.policy(3, 500ms));
    const auto outcome = gateway.send(k_call);
    REQUIRE(std::holds_alternative<http::Reply>(outcome));
    CHECK(clock.slept == std::vector<std::chrono::milliseconds>{500ms, 1000ms});
    CHECK(recorded.retried == std::vector<std::string>{"500 refused", "1000 HTTP 503"});
    CHECK(inner.calls.size() == 3);
  }

  SUBCASE("spent retries give up with the last verdict's words and the tries counted") {
    for (int i = 0; i < 4; ++i) {
      inner.then("", 502);
    }
    inner.then("never asked");
    http::RetryingGateway gateway(inner, clock, recorded.policy(3, 250ms));
    const auto outcome = gateway.send(k_call);
    REQUIRE(std::holds_alternative<http::Failure>(outcome));
    CHECK(std::get<http::Failure>(outcome).message == "gave up after 4: HTTP 502");
    CHECK(clock.slept == std::vector<std::chrono::milliseconds>{250ms, 500ms, 1000ms});
    CHECK(inner.calls.size() == 4);
  }

  SUBCASE("no retries: the first failure is given up, without a wait") {
    inner.then_fail("timed out");
    http::RetryingGateway gateway(inner, clock, recorded.policy(0, 500ms));
    const auto outcome = gateway.send(k_call);
    REQUIRE(std::holds_alternative<http::Failure>(outcome));
    CHECK(std::get<http::Failure>(outcome).message == "gave up after 1: timed out");
    CHECK(clock.slept.empty());
  }

  SUBCASE("give_up ends the call at once") {
    inner.then_fail("malformed URL", false);
    inner.then("never asked");
    http::RetryingGateway gateway(inner, clock, recorded.policy(3, 500ms));
    const auto outcome = gateway.send(k_call);
    REQUIRE(std::holds_alternative<http::Failure>(outcome));
    CHECK(std::get<http::Failure>(outcome).message == "gave up after 1: malformed URL");
    CHECK(clock.slept.empty());
    CHECK(inner.calls.size() == 1);
  }

  SUBCASE("a resend is sent again at once and not counted: the backoff goes on where it was") {
    inner.then("", 503);
    inner.then("", 429);
    inner.then("", 429);
    inner.then("", 503);
    inner.then("", 503);
    http::RetryingGateway gateway(inner, clock, recorded.policy(2, 100ms));
    const auto outcome = gateway.send(k_call);
    REQUIRE(std::holds_alternative<http::Failure>(outcome));
    CHECK(recorded.gave_up_after == 3);
    CHECK(clock.slept == std::vector<std::chrono::milliseconds>{100ms, 200ms});
    CHECK(inner.calls.size() == 5);
  }
}
