#include "server/batch_window.hpp"

namespace ashare::server {

void BatchWindow::count(Clock::time_point now) {
  const auto elapsed = now - m_window_start;
  if (elapsed >= k_rate_window) {
    // Busy when the window's rate brings two charges within k_max_wait:
    // count / elapsed >= 2 / k_max_wait. A window that ran long after an idle spell spreads its
    // charges over the whole of it, so a burst after a pause does not count as load.
    m_busy = m_window_count * k_max_wait.count() >= 2 * static_cast<std::size_t>(elapsed.count());
    m_window_start = now;
    m_window_count = 0;
  }
  ++m_window_count;
}

} // namespace ashare::server
