#include "support/wait.hpp"

#include <thread>

namespace ashare::test {

bool poll_until(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout,
                std::chrono::milliseconds interval) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(interval); // a poll interval, not a wait for something to happen
  }
  return true;
}

} // namespace ashare::test
