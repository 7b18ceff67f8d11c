#include "core/remote/reply.hpp"

#include "core/api/json.hpp"
#include "core/overloaded.hpp"

namespace ashare::remote {
namespace {

// Return the typed body `parsed` of a 200, or throw UnexpectedReply with its parse error.
template <class Response> api::Answer parsed_or_throw(Result<Response> parsed) {
  if (!parsed) {
    throw UnexpectedReply(parsed.error().message);
  }
  return std::move(*parsed);
}

} // namespace

Error error_of_reply(const http::Reply& reply) {
  if (auto error = api::error_from_json(reply.body)) {
    return std::move(*error);
  }
  throw UnexpectedReply("HTTP " + std::to_string(reply.status) + " with an unexpected body");
}

api::Answer answer_of_reply(const api::TypedRequest& request, const http::Reply& reply) {
  if (reply.status != 200) {
    return error_of_reply(reply);
  }
  return std::visit(
    Overloaded{
      [&](const api::HealthRequest&) -> api::Answer {
        auto as_of = api::health_as_of_from_json(reply.body);
        if (!as_of) {
          throw UnexpectedReply(as_of.error().message);
        }
        return api::HealthResponse{store::DatasetInfo{*as_of, "", 0}};
      },
      [&](const api::BarsRequest&) { return parsed_or_throw(api::bars_from_json(reply.body)); },
      [&](const api::IndicatorRequest&) {
        return parsed_or_throw(api::indicators_from_json(reply.body));
      },
      [&](const api::MembersRequest&) { return parsed_or_throw(api::members_from_json(reply.body)); }},
    request);
}

api::Answer ask(http::Gateway& remote, const api::TypedRequest& request) {
  return answer_of_reply(request, get(remote, api::to_target(request)));
}

} // namespace ashare::remote
