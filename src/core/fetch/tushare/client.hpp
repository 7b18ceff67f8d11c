// Calling Tushare Pro's APIs as D18 asks (a Client is used by one thread at a time): one call at a
// time at the pacer's pace, a POST of JSON through the core's HTTP gateway (http/gateway.hpp),
// every page of an answer (`offset`/`limit` while `has_more`), the rate answer waited out and the
// same call sent again, network failures, malformed replies and internal errors retried with a
// doubling backoff (http/retrying_gateway.hpp), and the refusals that end a fetch (daily quota,
// token, permission) returned as values.
#pragma once

#include "core/domain/clock.hpp"
#include "core/fetch/pacer.hpp"
#include "core/fetch/tushare/wire.hpp"
#include "core/http/retrying_gateway.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace ashare::fetch::tushare {

// Why a call has no table.
struct CallFailure {
  enum class Kind {
    quota,      // the daily quota is spent (exit 4)
    token,      // the token is refused (exit 4)
    permission, // the token may not call this API
    failing,    // the source kept failing: network, malformed replies, internal errors (exit 3)
    refused,    // another refusal, in the source's words (exit 1)
  };
  Kind kind = Kind::refused;
  std::string message; // names the API; quotes the source's words; never the token
};

using CallResult = std::variant<Table, CallFailure>;

struct ClientSettings {
  std::string token;
  int retries = 3;                                   // after the first try of a failing call
  std::chrono::milliseconds backoff{500};            // before the first retry; doubles
  std::int64_t page_rows = 6000;                     // `limit` of each page
};

// What the client tells its caller as it goes (for the progress bar and the log).
struct CallEvent {
  enum class Kind { called, waited_for_pace, waited_for_window, retrying };
  Kind kind = Kind::called;
  std::chrono::milliseconds waited{0};
  std::string message; // retrying: why
};

class Client {
public:
  // Post to Tushare through `gateway` at `pacer`'s pace, waiting out the backoff on `clock`.
  Client(http::Gateway& gateway,
         Pacer& pacer,
         domain::Clock& clock,
         ClientSettings settings,
         std::function<void(const CallEvent&)> on_event = {});

  // Call `api_name` with `params`, asking for `fields`, and return every page's rows as one
  // table. Paged with `offset` and `limit` unless `params` sets them.
  CallResult call(std::string_view api_name, const nlohmann::json& params, std::string_view fields);

  // Tell `on_event` from now on what the client does (none: tell nothing).
  void set_on_event(std::function<void(const CallEvent&)> on_event) { m_on_event = std::move(on_event); }

  // Return how many requests were sent (pages and retries included).
  // Safe to ask from another thread than the one calling.
  std::int64_t requests() const { return m_requests.load(); }

private:
  class PacedTries; // the gateway each try goes through: the pace, the count, the event

  // Send one page's request until it has an answer or a failure that ends the call.
  std::variant<Envelope, CallFailure>
  call_page(std::string_view api_name, const nlohmann::json& params, std::string_view fields);
  // Return the retries of a call of `api_name`, which put the envelope of the reply they keep in
  // `kept`.
  http::RetryPolicy retry_policy(std::string_view api_name, std::optional<Envelope>& kept);
  // Return what `outcome` says of a call (D18), setting `kept` to the envelope of a reply kept.
  http::Verdict judge(const http::Outcome& outcome, std::optional<Envelope>& kept);
  void tell(CallEvent event);

  http::Gateway& m_gateway;
  Pacer& m_pacer;
  domain::Clock& m_clock;
  ClientSettings m_settings;
  std::function<void(const CallEvent&)> m_on_event;
  std::atomic<std::int64_t> m_requests = 0;
};

} // namespace ashare::fetch::tushare
