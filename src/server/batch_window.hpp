// How long a batch of credit charges waits for more before it is applied (issue 35: group
// commit). A batch costs one transaction whatever its size; with the keys on PostgreSQL that is
// a round trip, a commit and a turn at the key's row lock that every replica shares (3 replicas
// served 1.5 charges a transaction before). Under load, a batch that waits up to k_max_wait for
// the charges arriving meanwhile divides that cost among many requests. A server that is not
// busy answers at once: it waits only when the charges counted in the last rate window came fast
// enough to bring two more within k_max_wait.
#pragma once

#include <chrono>
#include <cstddef>

namespace ashare::server {

class BatchWindow {
public:
  using Clock = std::chrono::steady_clock;
  static constexpr Clock::duration k_max_wait = std::chrono::microseconds(1000);
  static constexpr std::size_t k_full = 32;     // enough to share a transaction's cost: go
  static constexpr Clock::duration k_rate_window = std::chrono::milliseconds(50);

  // Count a charge submitted at `now`, closing the rate window when it has run its length.
  void count(Clock::time_point now);

  // Return how long a batch of `queued` charges waits for more: zero unless busy and not full.
  Clock::duration wait_for(std::size_t queued) const {
    return m_busy && queued < k_full ? k_max_wait : Clock::duration::zero();
  }

  // Return whether the last closed rate window saw charges arrive fast enough to wait for them.
  bool busy() const { return m_busy; }

private:
  Clock::time_point m_window_start{};
  std::size_t m_window_count = 0;
  bool m_busy = false;
};

} // namespace ashare::server
