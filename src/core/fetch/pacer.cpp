#include "core/fetch/pacer.hpp"

#include <algorithm>

namespace ashare::fetch {

Pacer::Pacer(domain::Clock& clock, int per_window, std::chrono::milliseconds window)
    : m_clock(clock), m_per_window(per_window), m_window(window) {}

std::chrono::milliseconds Pacer::before_call() {
  using std::chrono::milliseconds;
  const auto now = m_clock.now();
  milliseconds waited{0};
  if (m_per_window > 0 && m_last_call) {
    // Evenly spaced calls: a window never holds more than per_window of them.
    const auto interval = m_window / m_per_window;
    const auto due = *m_last_call + interval;
    if (due > now) {
      waited = std::chrono::ceil<milliseconds>(due - now);
      m_clock.sleep_for(waited);
    }
  }
  m_last_call = m_clock.now();
  return waited;
}

std::chrono::milliseconds Pacer::after_rate_refusal(std::optional<int> limit) {
  if (limit && m_per_window != 0) {
    m_per_window = std::min(m_per_window, pace_under(*limit));
  } else if (limit) {
    m_per_window = pace_under(*limit);
  }
  m_clock.sleep_for(m_window);
  m_last_call = m_clock.now();
  return m_window;
}

int pace_under(int limit) {
  return std::max(1, limit - std::max(1, limit / 10));
}

} // namespace ashare::fetch
