#include "core/api/charging.hpp"

#include "core/api/etag.hpp"
#include "core/api/responses.hpp"
#include "core/store/store_unavailable.hpp"

#include <memory>
#include <span>
#include <utility>

namespace ashare::api {
namespace {

// Return the response of `answer` (an error, or the body's renderer) when `credits_charged`; a
// 200 carries `etag` when one is given (D17).
Response answer_response(const Result<Render>& answer,
                         std::optional<std::int64_t> credits_charged,
                         const std::string& etag = {}) {
  if (!answer) {
    return error_body(answer.error());
  }
  auto response = body_response((*answer)(credits_charged));
  if (!etag.empty()) {
    response.set_header("ETag", etag);
  }
  return response;
}

// D17: the 304 of a request whose If-None-Match names `etag`: no body, no charge.
Response not_modified(const std::string& etag) {
  Response response;
  response.status = 304;
  response.set_header("ETag", etag);
  return response;
}

// The 401 of a key revoked (or deleted) since it was authenticated: the charge statement checks
// it too.
Response refused_by_charge(const store::ChargeResult& result) {
  return unauthorized(
    make_error(ErrorCode::unauthorized, result.revoked ? "API key revoked" : "invalid API key"));
}

// Return the response of a metered request once its charge of `cost` has `result` (D7).
Response charged_response(const Result<Render>& answer,
                          std::int64_t cost,
                          const std::string& etag,
                          const store::ChargeResult& result) {
  if (result.revoked || !result.balance) {
    return refused_by_charge(result);
  }
  Response response;
  if (!answer || cost == 0) {
    // Errors cost nothing; nor does a request whose every symbol is unknown (D7).
    response = answer_response(answer, std::nullopt, etag);
  } else if (result.charged) {
    response = answer_response(answer, cost, etag);
  } else {
    response = error_body(make_error(ErrorCode::insufficient_credits,
                                     "insufficient credits: this request costs "
                                       + std::to_string(cost) + ", the balance is "
                                       + std::to_string(*result.balance)));
  }
  // D7: X-Credits-Remaining on every response after authentication.
  set_credits_header(response, result.balance);
  return response;
}

// Return `needed` as the step: to wait for when waiting is forbidden, else charged now.
Step charge_now_or_later(ChargeNeeded needed, Services& services, Waiting waiting) {
  if (waiting == Waiting::forbidden) {
    return needed;
  }
  auto keys = services.keys.acquire();
  const auto results = keys->charge_batch(std::span(&needed.charge, 1));
  return needed.finish(results.front());
}

} // namespace

Step charge_and_answer(const Caller& caller,
                       Result<Render> answer,
                       std::int64_t cost,
                       std::string etag,
                       Services& services,
                       Waiting waiting) {
  if (!caller.metered) {
    return answer_response(answer, std::nullopt, etag);
  }
  auto kept = std::make_shared<const Result<Render>>(std::move(answer));
  return charge_now_or_later(
    ChargeNeeded{store::ChargeRequest{caller.key_id, cost},
                 [kept, cost, etag = std::move(etag)](const store::ChargeResult& result) {
                   return charged_response(*kept, cost, etag, result);
                 }},
    services, waiting);
}

Step answer_not_modified(const Caller& caller, std::string etag, Services& services, Waiting waiting) {
  if (!caller.metered) {
    return not_modified(etag);
  }
  return charge_now_or_later(
    ChargeNeeded{store::ChargeRequest{caller.key_id, 0},
                 [etag = std::move(etag)](const store::ChargeResult& result) {
                   if (result.revoked || !result.balance) {
                     return refused_by_charge(result);
                   }
                   auto response = not_modified(etag);
                   set_credits_header(response, result.balance);
                   return response;
                 }},
    services, waiting);
}

bool is_not_modified(const Request& request, const std::string& etag) {
  return request.if_none_match && etag_matches(*request.if_none_match, etag);
}

Response tag_public(Response response, const Request& request) {
  if (response.status != 200) {
    return response;
  }
  if (response.find_header("ETag") == nullptr) {
    response.set_header("ETag", body_etag(response.body.str()));
  }
  const std::string etag = *response.find_header("ETag");
  if (is_not_modified(request, etag)) {
    return not_modified(etag);
  }
  return response;
}

Response internal_error(const Caller& caller, const std::string& detail, Services& services) {
  services.log_error(detail);
  auto response = error_body(make_error(ErrorCode::internal, k_internal_error_message));
  if (caller.metered) {
    try {
      const store::ChargeRequest read_balance{caller.key_id, 0};
      auto keys = services.keys.acquire();
      set_credits_header(response, keys->charge_batch(std::span(&read_balance, 1)).front().balance);
    } catch (const std::exception&) {
      // the store is failing: answer without the balance rather than not at all
    }
  }
  return response;
}

void set_credits_header(Response& response, const std::optional<std::int64_t>& balance) {
  if (balance) {
    response.set_header("X-Credits-Remaining", std::to_string(*balance));
  }
}

std::vector<store::ChargeResult> apply_charges(Services& services,
                                               std::span<const store::ChargeRequest> charges) {
  auto keys = services.keys.acquire();
  return keys->charge_batch(charges);
}

bool is_store_unreachable(const std::exception& error) {
  return dynamic_cast<const store::StoreUnavailable*>(&error) != nullptr;
}

} // namespace ashare::api
