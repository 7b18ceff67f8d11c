#include "core/remote/calls.hpp"

#include "core/api/json.hpp"

#include <variant>

namespace ashare::remote {
namespace {

// A server that keeps answering 5xx is as unusable as an unreachable one (exit 3).
std::string kept_failing(const std::string& base_url, const http::Reply& reply, int attempts) {
  std::string detail = "HTTP " + std::to_string(reply.status);
  if (const auto error = api::error_from_json(reply.body)) {
    detail += " " + std::string(error_info(error->code).wire_name) + ": " + error->message;
  }
  return base_url + " kept failing after " + std::to_string(attempts) + " attempts: " + detail;
}

} // namespace

http::Reply get(http::Gateway& remote, const std::string& target, const std::string& etag) {
  http::Call call{http::Method::get, target, {}, {}};
  if (!etag.empty()) {
    call.headers.push_back({"If-None-Match", etag});
  }
  auto outcome = remote.send(call);
  if (auto* failure = std::get_if<http::Failure>(&outcome)) {
    throw Unreachable(failure->message);
  }
  return std::get<http::Reply>(std::move(outcome));
}

http::RetryPolicy retry_policy(const std::string& base_url,
                               int retries,
                               std::chrono::milliseconds backoff) {
  using Kind = http::Verdict::Kind;
  http::RetryPolicy policy{retries, backoff, {}, {}};
  policy.judge = [](const http::Outcome& outcome) -> http::Verdict {
    if (const auto* failure = std::get_if<http::Failure>(&outcome)) {
      return {failure->retryable ? Kind::retry : Kind::give_up};
    }
    return {std::get<http::Reply>(outcome).status >= 500 ? Kind::retry : Kind::keep};
  };
  policy.give_up = [base_url](const http::Outcome& last, int tries, const std::string&) {
    if (const auto* failure = std::get_if<http::Failure>(&last)) {
      return http::Failure{"cannot reach " + failure->message, false};
    }
    return http::Failure{kept_failing(base_url, std::get<http::Reply>(last), tries), false};
  };
  return policy;
}

} // namespace ashare::remote
