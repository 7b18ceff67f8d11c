// D14: the token bucket per key, on a fake clock (exact counts), and `--rate-limit`'s values.
#include "core/auth/rate_limiter.hpp"

#include <doctest/doctest.h>

#include <chrono>

using namespace ashare;
using auth::Plan;
using auth::RateLimiter;
using namespace std::chrono_literals;

namespace {

// Count how many of `requests` made at `now` pass.
int passed(RateLimiter& limiter, std::int64_t key, Plan plan, int requests,
           RateLimiter::Clock::time_point now) {
  int count = 0;
  for (int i = 0; i < requests; ++i) {
    count += limiter.take(key, plan, now) ? 0 : 1;
  }
  return count;
}

} // namespace

TEST_CASE("D14: auth::RateLimiter, off until enabled, then a bucket of twice the rate per key") {
  const RateLimiter::Clock::time_point t0{};
  RateLimiter limiter;
  CHECK_FALSE(limiter.enabled());
  CHECK(passed(limiter, 1, Plan::free, 1000, t0) == 1000);
  limiter.enable(auth::k_default_plan_rates);
  CHECK(limiter.enabled());
  CHECK(limiter.rate(Plan::free) == 5);
  CHECK(limiter.rate(Plan::basic) == 50);
  CHECK(limiter.rate(Plan::pro) == 500);

  // A burst at one instant: the bucket's capacity, twice the rate; then Retry-After 1.
  CHECK(passed(limiter, 1, Plan::free, 100, t0) == 10);
  CHECK(limiter.take(1, Plan::free, t0) == 1);
  CHECK(passed(limiter, 2, Plan::basic, 1000, t0) == 100);
  CHECK(passed(limiter, 3, Plan::pro, 5000, t0) == 1000);
  // Per key: another Free key has its own bucket.
  CHECK(passed(limiter, 4, Plan::free, 100, t0) == 10);

  // Refill at the rate: 5 a second for Free, one every 200 ms, never beyond the capacity.
  CHECK(passed(limiter, 1, Plan::free, 100, t0 + 199ms) == 0);
  CHECK(passed(limiter, 1, Plan::free, 100, t0 + 200ms) == 1);
  CHECK(passed(limiter, 1, Plan::free, 100, t0 + 1200ms) == 5);
  CHECK(passed(limiter, 1, Plan::free, 100, t0 + 60s) == 10);
  // A steady 5 a second all pass.
  int steady = 0;
  for (int i = 1; i <= 50; ++i) {
    steady += passed(limiter, 1, Plan::free, 1, t0 + 60s + i * 200ms);
  }
  CHECK(steady == 50);
  // A clock that goes back (another thread's earlier instant) adds nothing and takes nothing.
  CHECK(passed(limiter, 1, Plan::free, 100, t0 + 30s) == 0);
}

TEST_CASE("D14: Retry-After is the whole seconds until a token is back, at least 1") {
  const RateLimiter::Clock::time_point t0{};
  RateLimiter limiter;
  limiter.enable(auth::PlanRates{1, 0, 0}); // Free 1 a second: a bucket of 2
  CHECK(passed(limiter, 7, Plan::free, 2, t0) == 2);
  CHECK(limiter.take(7, Plan::free, t0) == 1);
  CHECK(limiter.take(7, Plan::free, t0 + 500ms) == 1);
  // A rate of 0 is no limit.
  CHECK(passed(limiter, 8, Plan::pro, 100000, t0) == 100000);
  RateLimiter slow;
  slow.enable(auth::PlanRates{1, 1, 1});
  CHECK(passed(slow, 9, Plan::basic, 2, t0) == 2);
  CHECK(slow.take(9, Plan::basic, t0) == 1);
}

TEST_CASE("D14: auth::parse_plan_rates") {
  CHECK(*auth::parse_plan_rates("") == auth::k_default_plan_rates);
  CHECK(*auth::parse_plan_rates("on") == auth::k_default_plan_rates);
  CHECK(*auth::parse_plan_rates("free=10") == auth::PlanRates{10, 50, 500});
  CHECK(*auth::parse_plan_rates("PRO=0,Basic=7") == auth::PlanRates{5, 7, 0});
  CHECK(*auth::parse_plan_rates("free=1000000") == auth::PlanRates{1000000, 50, 500});
  for (const auto* bad : {"free", "free=", "=5", "gold=5", "free=-1", "free=1.5", "free=5,",
                          ",free=5", "free=1000001", "free=5;pro=1", "off"}) {
    CAPTURE(std::string(bad));
    const auto rates = auth::parse_plan_rates(bad);
    REQUIRE_FALSE(rates.ok());
    CHECK(rates.error().code == ErrorCode::invalid_input);
    CHECK(rates.error().message.rfind("invalid --rate-limit \"" + std::string(bad) + "\"", 0) == 0);
  }
}
