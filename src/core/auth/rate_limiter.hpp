// Request rates per key (D14, off unless `serve --rate-limit`): a token bucket per key, refilled
// at its plan's rate (Free 5, Basic 50, Pro 500 requests a second by default) and holding up to
// twice that, so a client may burst. Per server process: replicas each apply their own.
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace ashare::auth {

// Requests a second per plan, in Plan order; 0 leaves a plan unlimited.
using PlanRates = std::array<std::int64_t, 3>;

// D14's figures: Free 5, Basic 50, Pro 500.
inline constexpr PlanRates k_default_plan_rates{5, 50, 500};

// Parse `--rate-limit`'s value: "" or "on" for D14's figures, else "PLAN=N[,PLAN=N]" (plan names
// in any case, N a whole number from 0 to 1000000, 0 lifting the limit) over D14's figures. A
// malformed value is INVALID_INPUT naming it.
Result<PlanRates> parse_plan_rates(std::string_view text);

class RateLimiter {
public:
  using Clock = std::chrono::steady_clock;

  // Limit requests to `rates` from now on (a limiter starts off: every request passes). Call it
  // before requests arrive: take() reads the rates without a lock.
  void enable(const PlanRates& rates);

  // Return whether enable() was called.
  bool enabled() const { return m_enabled; }

  // Return the requests a second `plan` may make (0: no limit).
  std::int64_t rate(Plan plan) const { return m_rates[static_cast<std::size_t>(plan)]; }

  // Take one request of key `key_id` on `plan` at `now`. Return nullopt when it may go ahead,
  // else the whole seconds after which one may (at least 1), for Retry-After. Thread-safe.
  std::optional<std::int64_t> take(std::int64_t key_id, Plan plan, Clock::time_point now);

private:
  struct Bucket {
    double tokens = 0;
    Clock::time_point updated;
  };

  std::atomic<bool> m_enabled{false}; // set before serving starts
  PlanRates m_rates = k_default_plan_rates;
  std::mutex m_mutex;
  std::unordered_map<std::int64_t, Bucket> m_buckets; // by key id: bounded by the key store
};

} // namespace ashare::auth
