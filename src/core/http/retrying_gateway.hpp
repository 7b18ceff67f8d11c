// One retry loop for every caller of a gateway (http/gateway.hpp): a gateway over another that
// sends a call again while its policy judges the outcome worth retrying, waiting on the core's
// clock (domain/clock.hpp) a backoff that doubles each time, so that a test with a fake clock pins
// every wait without sleeping. What is worth retrying, and the words of giving up, are the
// policy's: remote mode retries network failures and 5xx (remote/calls.hpp); Tushare's client
// retries what its replies say too, and sends a call again at once after a per-minute refusal it
// waited out (fetch/tushare/client.cpp).
#pragma once

#include "core/domain/clock.hpp"
#include "core/http/gateway.hpp"

#include <chrono>
#include <functional>
#include <string>

namespace ashare::http {

// What a policy makes of one outcome.
struct Verdict {
  enum class Kind {
    keep,    // the call's outcome: return it
    retry,   // a failure: send again after the backoff, counted against the retries
    resend,  // send again at once, not counted (the policy waited what it had to)
    give_up, // a failure that trying again cannot help: give up now
  };
  Kind kind = Kind::keep;
  std::string why = {}; // retry and give_up: what failed, for on_retry and give_up
};

struct RetryPolicy {
  int retries = 3;                        // counted tries after the first
  std::chrono::milliseconds backoff{500}; // before the first retry; doubles after each
  // Return what to do with `outcome`.
  std::function<Verdict(const Outcome& outcome)> judge;
  // Return the failure a call ends with when it is given up: `last` is its last outcome after
  // `tries` counted tries, `why` the verdict's words.
  std::function<Failure(const Outcome& last, int tries, const std::string& why)> give_up;
  // Told before each wait of `backoff` (none: nothing told).
  std::function<void(std::chrono::milliseconds backoff, const std::string& why)> on_retry = {};
};

class RetryingGateway final : public Gateway {
public:
  // Send through `inner`, retrying as `policy` says and waiting on `clock`.
  RetryingGateway(Gateway& inner, domain::Clock& clock, RetryPolicy policy);

  // Return the first outcome the policy keeps, or its give_up() failure.
  Outcome send(const Call& call) override;

private:
  Gateway& m_inner;
  domain::Clock& m_clock;
  RetryPolicy m_policy;
};

} // namespace ashare::http
