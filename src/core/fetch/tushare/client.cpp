#include "core/fetch/tushare/client.hpp"

#include <cassert>
#include <utility>

namespace ashare::fetch::tushare {
namespace {

std::string quoted_api(std::string_view api_name) {
  return "Tushare `" + std::string(api_name) + "`";
}

std::string failing_message(std::string_view api_name, int failures, const std::string& why) {
  return quoted_api(api_name) + " kept failing (" + std::to_string(failures)
         + (failures == 1 ? " try" : " tries") + "), last: " + why;
}

CallFailure failure_of(const Envelope& reply, Refusal kind, std::string_view api_name) {
  const std::string words = " (code " + std::to_string(reply.code) + "): " + reply.msg;
  switch (kind) {
  case Refusal::daily_quota:
    return {CallFailure::Kind::quota, "the token's daily quota of " + quoted_api(api_name)
                                          + " is spent" + words + "; run again tomorrow"};
  case Refusal::token:
    return {CallFailure::Kind::token, "Tushare refused the token" + words};
  case Refusal::permission:
    return {CallFailure::Kind::permission,
            "the token may not call " + quoted_api(api_name) + words};
  default:
    return {CallFailure::Kind::refused, quoted_api(api_name) + " refused the call" + words};
  }
}

} // namespace

// One try of a call: at the pacer's pace, counted and told. The retries go through it, so each
// try waits its turn.
class Client::PacedTries final : public http::Gateway {
public:
  explicit PacedTries(Client& client) : m_client(client) {}

  http::Outcome send(const http::Call& call) override {
    if (const auto waited = m_client.m_pacer.before_call(); waited.count() > 0) {
      m_client.tell({CallEvent::Kind::waited_for_pace, waited, {}});
    }
    ++m_client.m_requests;
    m_client.tell({CallEvent::Kind::called, {}, {}});
    return m_client.m_gateway.send(call);
  }

private:
  Client& m_client;
};

Client::Client(http::Gateway& gateway,
               Pacer& pacer,
               domain::Clock& clock,
               ClientSettings settings,
               std::function<void(const CallEvent&)> on_event)
    : m_gateway(gateway),
      m_pacer(pacer),
      m_clock(clock),
      m_settings(std::move(settings)),
      m_on_event(std::move(on_event)) {}

void Client::tell(CallEvent event) {
  if (m_on_event) {
    m_on_event(event);
  }
}

http::Verdict Client::judge(const http::Outcome& outcome, std::optional<Envelope>& kept) {
  using Kind = http::Verdict::Kind;
  if (const auto* failure = std::get_if<http::Failure>(&outcome)) {
    return {Kind::retry, failure->message}; // every network failure, as the source may come back
  }
  const auto& reply = std::get<http::Reply>(outcome);
  auto envelope = parse_reply(reply.body);
  if (!envelope) {
    return {Kind::retry, reply.status != 200 ? "HTTP " + std::to_string(reply.status)
                                             : envelope.error().message};
  }
  if (envelope->code != 0) {
    const auto refusal = classify_refusal(*envelope);
    if (refusal.kind == Refusal::per_minute) {
      // D18: wait for the window and send the same call again; not a failure.
      tell({CallEvent::Kind::waited_for_window, m_pacer.after_rate_refusal(refusal.per_minute_limit),
            envelope->msg});
      return {Kind::resend};
    }
    if (refusal.kind == Refusal::internal) {
      return {Kind::retry, envelope->msg};
    }
  }
  kept = std::move(*envelope);
  return {Kind::keep};
}

http::RetryPolicy Client::retry_policy(std::string_view api_name, std::optional<Envelope>& kept) {
  http::RetryPolicy policy{m_settings.retries, m_settings.backoff, {}, {}};
  policy.judge = [this, &kept](const http::Outcome& outcome) { return judge(outcome, kept); };
  policy.give_up = [api_name](const http::Outcome&, int tries, const std::string& why) {
    return http::Failure{failing_message(api_name, tries, why), false};
  };
  policy.on_retry = [this](std::chrono::milliseconds backoff, const std::string& why) {
    tell({CallEvent::Kind::retrying, backoff, why});
  };
  return policy;
}

std::variant<Envelope, CallFailure>
Client::call_page(std::string_view api_name, const nlohmann::json& params, std::string_view fields) {
  std::optional<Envelope> kept;
  PacedTries tries(*this);
  http::RetryingGateway gateway(tries, m_clock, retry_policy(api_name, kept));
  const auto outcome = gateway.send(
      http::Call{http::Method::post, "/", {{"Content-Type", "application/json"}},
                 request_body(api_name, m_settings.token, params, fields)});
  if (const auto* failure = std::get_if<http::Failure>(&outcome)) {
    return CallFailure{CallFailure::Kind::failing, failure->message};
  }
  assert(kept); // a reply comes back only when judge() kept it
  if (kept->code == 0) {
    return std::move(*kept);
  }
  return failure_of(*kept, classify_refusal(*kept).kind, api_name);
}

CallResult Client::call(std::string_view api_name, const nlohmann::json& params, std::string_view fields) {
  const bool paged = !params.contains("offset") && !params.contains("limit");
  Table whole;
  std::int64_t offset = 0;
  for (;;) {
    auto page_params = params;
    if (paged) {
      page_params["offset"] = offset;
      page_params["limit"] = m_settings.page_rows;
    }
    auto page = call_page(api_name, page_params, fields);
    if (auto* failure = std::get_if<CallFailure>(&page)) {
      return std::move(*failure);
    }
    auto& table = std::get<Envelope>(page).data;
    if (offset == 0) {
      whole.fields = table.fields;
    } else if (table.fields != whole.fields) {
      return CallFailure{CallFailure::Kind::failing,
                         quoted_api(api_name) + " changed its columns between pages"};
    }
    offset += static_cast<std::int64_t>(table.items.size());
    for (auto& item : table.items) {
      whole.items.push_back(std::move(item));
    }
    // A page that says "more" but brings nothing would loop for ever.
    if (!paged || !table.has_more || table.items.empty()) {
      return whole;
    }
  }
}

} // namespace ashare::fetch::tushare
