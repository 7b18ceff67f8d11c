// Fakes for the fetch tests: a clock that only moves when slept on, and a transport that plays
// back scripted answers and records every body it was sent.
#pragma once

#include "core/fetch/transport.hpp"

#include <deque>
#include <string>
#include <vector>

namespace ashare::test {

class FakeClock final : public fetch::Clock {
public:
  std::chrono::steady_clock::time_point now() override { return m_now; }
  void sleep_for(std::chrono::milliseconds duration) override {
    m_now += duration;
    slept.push_back(duration);
  }
  std::vector<std::chrono::milliseconds> slept;

private:
  std::chrono::steady_clock::time_point m_now{};
};

class ScriptedTransport final : public fetch::Transport {
public:
  // Answer the next post with `body` (HTTP 200).
  void then(std::string body, int status = 200) {
    m_script.push_back(fetch::Answer{status, std::move(body)});
  }
  // Fail the next post as the network would.
  void then_fail(std::string message) { m_script.push_back(fetch::NetworkFailure{std::move(message)}); }

  fetch::Exchange post(const std::string& body) override {
    sent.push_back(body);
    if (m_script.empty()) {
      return fetch::NetworkFailure{"nothing scripted"};
    }
    auto next = std::move(m_script.front());
    m_script.pop_front();
    return next;
  }
  std::vector<std::string> sent;

private:
  std::deque<fetch::Exchange> m_script;
};

} // namespace ashare::test
