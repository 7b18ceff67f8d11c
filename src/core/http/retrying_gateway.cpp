#include "core/http/retrying_gateway.hpp"

#include <utility>

namespace ashare::http {

RetryingGateway::RetryingGateway(Gateway& inner, domain::Clock& clock, RetryPolicy policy)
    : m_inner(inner), m_clock(clock), m_policy(std::move(policy)) {}

Outcome RetryingGateway::send(const Call& call) {
  auto backoff = m_policy.backoff;
  int tries = 0;
  for (;;) {
    auto outcome = m_inner.send(call);
    const auto verdict = m_policy.judge(outcome);
    switch (verdict.kind) {
    case Verdict::Kind::keep:
      return outcome;
    case Verdict::Kind::resend:
      continue;
    case Verdict::Kind::give_up:
      return m_policy.give_up(outcome, tries + 1, verdict.why);
    case Verdict::Kind::retry:
      break;
    }
    if (tries++ >= m_policy.retries) {
      return m_policy.give_up(outcome, tries, verdict.why);
    }
    if (m_policy.on_retry) {
      m_policy.on_retry(backoff, verdict.why);
    }
    m_clock.sleep_for(backoff);
    backoff *= 2;
  }
}

} // namespace ashare::http
