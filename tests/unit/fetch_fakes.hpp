// Fakes for the fetch and HTTP tests: a clock that only moves when slept on, and a gateway that
// plays back scripted outcomes and records every call it was sent.
#pragma once

#include "core/domain/clock.hpp"
#include "core/http/gateway.hpp"

#include <deque>
#include <string>
#include <vector>

namespace ashare::test {

class FakeClock final : public domain::Clock {
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

class ScriptedGateway final : public http::Gateway {
public:
  // Answer the next call with `body` (HTTP 200).
  void then(std::string body, int status = 200) {
    m_script.push_back(http::Reply{status, std::move(body)});
  }
  // Fail the next call as the network would (`retryable` false: as a malformed URL would).
  void then_fail(std::string message, bool retryable = true) {
    m_script.push_back(http::Failure{std::move(message), retryable});
  }

  http::Outcome send(const http::Call& call) override {
    calls.push_back(call);
    sent.push_back(call.body);
    if (m_script.empty()) {
      return http::Failure{"nothing scripted"};
    }
    auto next = std::move(m_script.front());
    m_script.pop_front();
    return next;
  }
  std::vector<http::Call> calls;
  std::vector<std::string> sent; // the body of each call

private:
  std::deque<http::Outcome> m_script;
};

} // namespace ashare::test
