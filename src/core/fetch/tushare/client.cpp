#include "core/fetch/tushare/client.hpp"

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

Client::Client(Transport& transport,
               Pacer& pacer,
               Clock& clock,
               ClientSettings settings,
               std::function<void(const CallEvent&)> on_event)
    : m_transport(transport),
      m_pacer(pacer),
      m_clock(clock),
      m_settings(std::move(settings)),
      m_on_event(std::move(on_event)) {}

void Client::tell(CallEvent event) {
  if (m_on_event) {
    m_on_event(event);
  }
}

std::variant<Envelope, CallFailure>
Client::call_page(std::string_view api_name, const nlohmann::json& params, std::string_view fields) {
  const auto body = request_body(api_name, m_settings.token, params, fields);
  auto backoff = m_settings.backoff;
  int failures = 0;
  for (;;) {
    if (const auto waited = m_pacer.before_call(); waited.count() > 0) {
      tell({CallEvent::Kind::waited_for_pace, waited, {}});
    }
    ++m_requests;
    tell({CallEvent::Kind::called, {}, {}});
    std::string why;
    const auto exchange = m_transport.post(body);
    if (const auto* failure = std::get_if<NetworkFailure>(&exchange)) {
      why = failure->message;
    } else {
      const auto& answer = std::get<Answer>(exchange);
      auto reply = parse_reply(answer.body);
      if (answer.status != 200 && !reply) {
        why = "HTTP " + std::to_string(answer.status);
      } else if (!reply) {
        why = reply.error().message;
      } else if (reply->code == 0) {
        return std::move(*reply);
      } else {
        const auto refusal = classify_refusal(*reply);
        if (refusal.kind == Refusal::per_minute) {
          // D18: wait for the window and send the same call again; not a failure.
          tell({CallEvent::Kind::waited_for_window, m_pacer.after_rate_refusal(refusal.per_minute_limit),
                reply->msg});
          continue;
        }
        if (refusal.kind != Refusal::internal) {
          return failure_of(*reply, refusal.kind, api_name);
        }
        why = reply->msg;
      }
    }
    if (failures++ >= m_settings.retries) {
      return CallFailure{CallFailure::Kind::failing,
                         failing_message(api_name, failures, why)};
    }
    tell({CallEvent::Kind::retrying, backoff, why});
    m_clock.sleep_for(backoff);
    backoff *= 2;
  }
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
