// Politeness towards a source (D18): one request in flight, spaced so that no window of the
// source's rate limit sees more calls than it allows. The pace starts at a default (Tushare: 180
// a minute) and, once the source says its limit ("每分…最多访问该接口N次"), stays under it.
#pragma once

#include "core/domain/clock.hpp"

#include <chrono>
#include <optional>

namespace ashare::fetch {

class Pacer {
public:
  // Pace `per_window` calls per `window` (0: no pace at all, for benchmarks) on `clock`.
  Pacer(domain::Clock& clock, int per_window, std::chrono::milliseconds window);

  // Wait until a call keeps the pace, and count it; return how long that took.
  std::chrono::milliseconds before_call();

  // The source refused a call for its rate: from now on stay under `limit` (when it said one),
  // and wait out a whole window. Return how long that took.
  std::chrono::milliseconds after_rate_refusal(std::optional<int> limit);

  // Return the calls allowed per window now (0: not paced).
  int per_window() const { return m_per_window; }

private:
  domain::Clock& m_clock;
  int m_per_window;
  std::chrono::milliseconds m_window;
  std::optional<std::chrono::steady_clock::time_point> m_last_call;
};

// Return the pace that stays under a source's `limit` per window: a tenth below it (at least one
// call below), and at least 1.
int pace_under(int limit);

} // namespace ashare::fetch
