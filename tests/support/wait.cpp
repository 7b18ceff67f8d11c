#include "support/wait.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
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

int thread_id() {
  return static_cast<int>(::gettid());
}

bool thread_sleeps(int id) {
  // "TID (COMM) STATE ...": COMM may hold spaces and parentheses; the state follows the last ')'.
  std::ifstream in("/proc/self/task/" + std::to_string(id) + "/stat");
  std::stringstream text;
  text << in.rdbuf();
  const auto stat = text.str();
  const auto end_of_name = stat.rfind(')');
  return end_of_name != std::string::npos && end_of_name + 2 < stat.size()
         && stat[end_of_name + 2] == 'S';
}

} // namespace ashare::test
