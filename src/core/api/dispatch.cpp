#include "core/api/dispatch.hpp"

#include "core/api/answer.hpp"
#include "core/api/caller.hpp"
#include "core/api/etag.hpp"
#include "core/api/json.hpp"
#include "core/api/openapi.hpp"
#include "core/api/request_checks.hpp"
#include "core/api/store_view.hpp"
#include "core/overloaded.hpp"
#include "core/store/store_unavailable.hpp"

#include <array>
#include <cassert>
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <variant>
#include <string_view>
#include <vector>

namespace ashare::api {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* k_internal_message = "internal error; the server logged the details";
constexpr const char* k_unavailable_message =
  "service unavailable: the store cannot be reached; retry later";

// A public route answers from what it has: no key, no plan, no credits. nullopt: it needs the
// store and `view` may not wait.
using PublicAnswer = std::optional<Response> (*)(StoreView& view, Services& services);

// Renders a data answer's body; `credits_charged` is set when credits were charged (D7
// meta.credits_charged).
using Render = std::function<Body(std::optional<std::int64_t> credits_charged)>;

// A data route parses its request; its error (400) is answered after authentication (D6).
using ParseRequest = Result<TypedRequest> (*)(std::span<const std::string> captures,
                                             const QueryParams& params);

struct Route {
  std::string_view pattern;   // '/'-separated; a "*" segment matches any non-empty segment
  PublicAnswer answer_public; // set for a public route; the others need a key
  ParseRequest parse;         // its typed request (every route but the OpenAPI document's)
};

// Return the typed result of `parsed`, a request's parse.
template <class Request> Result<TypedRequest> typed(Result<Request> parsed) {
  if (!parsed) {
    return parsed.error();
  }
  return TypedRequest(std::move(*parsed));
}

Result<TypedRequest> parse_bars_route(std::span<const std::string> captures,
                                      const QueryParams& params) {
  return typed(parse_bars_request({captures[0], captures[1], captures[2], captures[3]}, params));
}

template <query::Indicator indicator>
Result<TypedRequest> parse_indicator_route(std::span<const std::string>, const QueryParams& params) {
  return typed(parse_indicator_request(indicator, params));
}

Result<TypedRequest> parse_health_route(std::span<const std::string>, const QueryParams&) {
  return TypedRequest(HealthRequest{});
}

Response body_response(Body body, int status = 200) {
  Response response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

std::optional<Response> answer_health(StoreView& view, Services& services) {
  // D15: stores on a database server are asked for on every check, so that a load balancer takes
  // out a replica that cannot reach them (a round trip each, on a worker).
  if ((services.keys_on_server() || services.data_on_server()) && !view.may_wait()) {
    return std::nullopt;
  }
  const auto catalog = view.catalog();
  if (!catalog) {
    return std::nullopt;
  }
  // D15: a draining server says so, so that a load balancer takes it out.
  bool available = !services.draining.load(std::memory_order_relaxed) && !view.store_unreachable();
  if (available && services.keys_on_server()) {
    try {
      services.keys.acquire()->load_generation();
    } catch (const store::StoreUnavailable& error) {
      services.log_error(std::string("health check: ") + error.what());
      available = false;
    }
  }
  return body_response(health_to_json(catalog->dataset, available), available ? 200 : 503);
}

std::optional<Response> answer_openapi(StoreView&, Services&) {
  static const std::string k_etag = body_etag(openapi_document()); // hashed once, not per request
  auto response = body_response(std::string(openapi_document()));
  response.set_header("ETag", k_etag);
  return response;
}

constexpr std::array k_routes{
  Route{k_health_path, answer_health, parse_health_route},
  Route{"/v1/openapi.json", answer_openapi, nullptr},
  Route{"/v1/ohlc/range/*/*/*/*", nullptr, parse_bars_route},
  Route{"/v1/indicators/ema", nullptr, parse_indicator_route<query::Indicator::ema>},
  Route{"/v1/indicators/rsi", nullptr, parse_indicator_route<query::Indicator::rsi>},
  Route{"/v1/indicators/sma", nullptr, parse_indicator_route<query::Indicator::sma>},
  Route{"/v1/indicators/macd", nullptr, parse_indicator_route<query::Indicator::macd>},
  Route{"/v1/indicators/bbands", nullptr, parse_indicator_route<query::Indicator::bbands>},
  Route{"/v1/indicators/atr", nullptr, parse_indicator_route<query::Indicator::atr>},
  Route{"/v1/indicators/kdj", nullptr, parse_indicator_route<query::Indicator::kdj>},
};

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> segments;
  segments.reserve(8); // the longest route has 7: one allocation a request, not four
  if (path.empty() || path.front() != '/') {
    return segments;
  }
  std::size_t start = 1;
  while (true) {
    const std::size_t slash = path.find('/', start);
    segments.push_back(path.substr(start, slash == path.npos ? path.npos : slash - start));
    if (slash == path.npos) {
      return segments;
    }
    start = slash + 1;
  }
}

// Return the route matching `path` (as sent) and fill `captures`, or nullptr (a trailing slash
// matches nothing, D10). D2: the path is split into segments first, then each segment is
// percent-decoded, so an encoded '/' stays inside its segment.
const Route* match_route(std::string_view path, std::vector<std::string>& captures) {
  // The patterns are split once, not per request.
  static const auto k_patterns = [] {
    std::vector<std::vector<std::string_view>> patterns;
    for (const auto& route : k_routes) {
      patterns.push_back(split_path(route.pattern));
    }
    return patterns;
  }();
  const auto raw_segments = split_path(path);
  std::vector<std::string> segments;
  segments.reserve(raw_segments.size());
  for (const auto segment : raw_segments) {
    segments.push_back(percent_decode_path(segment));
  }
  for (std::size_t r = 0; r < k_routes.size(); ++r) {
    const auto& pattern = k_patterns[r];
    if (pattern.size() != segments.size() || segments.empty()) {
      continue;
    }
    captures.clear();
    bool matched = true;
    for (std::size_t i = 0; i < pattern.size() && matched; ++i) {
      if (pattern[i] == "*") {
        matched = !segments[i].empty();
        captures.push_back(segments[i]); // copied: a later pattern may compare it
      } else {
        matched = pattern[i] == segments[i];
      }
    }
    if (matched) {
      return &k_routes[r];
    }
  }
  return nullptr;
}

Response error_body(const Error& error) {
  Response response;
  response.status = error_info(error.code).http_status;
  response.body = error_to_json(error);
  return response;
}

// The 503 of D15, without a request id.
Response unavailable_body() {
  auto response = error_body(make_error(ErrorCode::service_unavailable, k_unavailable_message));
  response.set_header("Retry-After", "1");
  return response;
}

Response unauthorized(const Error& error) {
  auto response = error_body(error);
  response.set_header("WWW-Authenticate", "Bearer");
  return response;
}

void set_credits_header(Response& response, const std::optional<std::int64_t>& balance) {
  if (balance) {
    response.set_header("X-Credits-Remaining", std::to_string(*balance));
  }
}

// One request being answered: what the steps below share.
struct Exchange {
  const Request& request;
  Services& services;
  const std::string& request_id;
  Waiting waiting;
  Clock::time_point now;
  bool rate_checked = false;       // an earlier step took this request's token (D14)
  mutable bool rate_taken = false; // this step took it
};

// Return the caller of the request's key, an UNAUTHORIZED response, or nullopt when finding the
// key needs the store and waiting is forbidden.
std::optional<Result<Caller>> find_caller(const Exchange& exchange) {
  const auto credential = bearer_credential(exchange.request.authorization);
  if (!credential) {
    return credential.error();
  }
  auto& cache = exchange.services.key_cache;
  if (exchange.waiting == Waiting::forbidden) {
    const auto lookup = cache.find_fresh(*credential, exchange.now);
    if (!lookup.known) {
      return std::nullopt;
    }
    return caller_of(lookup.key);
  }
  try {
    auto keys = exchange.services.keys.acquire();
    return caller_of(cache.find(*credential, *keys, exchange.now));
  } catch (const store::StoreUnavailable&) {
    // D15: a key already known is still answered (a metered one is refused by its charge).
    const auto remembered = cache.find_remembered(*credential);
    if (!remembered.known) {
      throw;
    }
    return caller_of(remembered.key);
  }
}

// What one step of answering gives: the response, that the request needs the store (only when
// waiting is forbidden), or the charge it waits on (likewise).
struct NeedsStore {};
using Outcome = std::variant<Response, NeedsStore, ChargeNeeded>;

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

// Return whether `request` names `etag` in its If-None-Match (D17).
bool is_not_modified(const Request& request, const std::string& etag) {
  return request.if_none_match && etag_matches(*request.if_none_match, etag);
}

// D17: tag a public route's 200 by its body, and answer 304 when the request names that tag.
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

// Return the response of a metered request once its charge of `cost` has `result` (D7).
Response charged_response(const Result<Render>& answer,
                          std::int64_t cost,
                          const std::string& etag,
                          const store::ChargeResult& result) {
  if (result.revoked || !result.balance) {
    // Revoked (or deleted) since it was authenticated: the charge statement checks it too.
    return unauthorized(make_error(ErrorCode::unauthorized,
                                   result.revoked ? "API key revoked" : "invalid API key"));
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

// Return `needed` as the outcome: to wait for when waiting is forbidden, else charged now.
Outcome charge_now_or_later(ChargeNeeded needed, const Exchange& exchange) {
  if (exchange.waiting == Waiting::forbidden) {
    return needed;
  }
  auto keys = exchange.services.keys.acquire();
  const auto results = keys->charge_batch(std::span(&needed.charge, 1));
  return needed.finish(results.front());
}

// 402: charge `cost` to `caller` and answer with `answer` (its 200 tagged `etag`, D17). An
// unmetered caller is answered at once; a metered one waits on the key store (ChargeNeeded when
// waiting is forbidden), and its balance is read even when nothing is charged: it is never kept
// in memory.
Outcome charge_and_answer(const Caller& caller,
                          Result<Render> answer,
                          std::int64_t cost,
                          const Exchange& exchange,
                          std::string etag = {}) {
  if (!caller.metered) {
    return answer_response(answer, std::nullopt, etag);
  }
  auto kept = std::make_shared<const Result<Render>>(std::move(answer));
  return charge_now_or_later(
    ChargeNeeded{store::ChargeRequest{caller.key_id, cost},
                 [kept, cost, etag = std::move(etag)](const store::ChargeResult& result) {
                   return charged_response(*kept, cost, etag, result);
                 }},
    exchange);
}

// D17: answer 304 in place of the charge, which it never makes (so a key with no credits left
// still revalidates); a metered key's balance is read for X-Credits-Remaining (D7), and a key
// revoked meanwhile is refused as the charge would refuse it.
Outcome answer_not_modified(const Caller& caller, std::string etag, const Exchange& exchange) {
  if (!caller.metered) {
    return not_modified(etag);
  }
  return charge_now_or_later(
    ChargeNeeded{store::ChargeRequest{caller.key_id, 0},
                 [etag = std::move(etag)](const store::ChargeResult& result) {
                   if (result.revoked || !result.balance) {
                     return unauthorized(make_error(
                       ErrorCode::unauthorized, result.revoked ? "API key revoked" : "invalid API key"));
                   }
                   auto response = not_modified(etag);
                   set_credits_header(response, result.balance);
                   return response;
                 }},
    exchange);
}

// Return the renderer of `answered`, a data route's typed response, or its error.
Result<Render> render_of(Answer answered) {
  return std::visit(
    Overloaded{
      [](Error& error) -> Result<Render> { return std::move(error); },
      [](BarsResponse& bars) -> Result<Render> {
        return Render([bars = std::move(bars)](std::optional<std::int64_t> charged) {
          return bars_to_body(bars, charged);
        });
      },
      [](IndicatorResponse& values) -> Result<Render> {
        return Render([values = std::move(values)](std::optional<std::int64_t>) {
          return Body(indicators_to_json(values));
        });
      },
      [](auto&) -> Result<Render> {
        return make_error(ErrorCode::internal, "a data route answered without data");
      }},
    answered);
}

// A data route after authentication: the checks of D6 (api::admit: 400, 403), D17's 304, the
// answer (api::answer_admitted), then the price (D7) and the charge (402).
Outcome serve_data(Result<TypedRequest> parsed,
                   const Caller& caller,
                   StoreView& view,
                   const Exchange& exchange) {
  auto admitted = admit(std::move(parsed), caller, view);
  if (auto* error = std::get_if<Error>(&admitted)) {
    return charge_and_answer(caller, std::move(*error), 0, exchange);
  }
  if (std::holds_alternative<Unanswered>(admitted)) {
    return NeedsStore{};
  }
  const auto& request = std::get<Admitted>(admitted);
  auto etag = data_etag(request.catalog->dataset, to_target(request.request), caller);
  if (is_not_modified(exchange.request, etag)) {
    return answer_not_modified(caller, std::move(etag), exchange); // no history read either
  }
  auto answered = answer_admitted(request, view, exchange.request_id);
  if (std::holds_alternative<Unanswered>(answered)) {
    return NeedsStore{};
  }
  return charge_and_answer(caller, render_of(std::move(answered)), credit_cost(request), exchange,
                           std::move(etag));
}

// Return `outcome` with a Retry-After of `seconds`, now or once its charge is applied.
Outcome with_retry_after(Outcome outcome, std::int64_t seconds) {
  if (auto* response = std::get_if<Response>(&outcome)) {
    response->set_header("Retry-After", std::to_string(seconds));
  } else if (auto* needed = std::get_if<ChargeNeeded>(&outcome)) {
    needed->finish = [finish = std::move(needed->finish),
                      seconds](const store::ChargeResult& result) {
      auto answered = finish(result);
      if (answered.status == 429) { // not when the charge found the key revoked meanwhile
        answered.set_header("Retry-After", std::to_string(seconds));
      }
      return answered;
    };
  }
  return outcome;
}

// D14: take a token of `caller`'s bucket, once per request (not again when a deferred request
// is answered on a worker); the 429 when there is none, which charges nothing.
std::optional<Outcome> check_rate(const Caller& caller, const Exchange& exchange) {
  if (exchange.rate_checked) {
    return std::nullopt;
  }
  exchange.rate_taken = true;
  const auto wait = exchange.services.rate_limiter.take(caller.key_id, caller.plan, exchange.now);
  if (!wait) {
    return std::nullopt;
  }
  const auto& limits = auth::plan_limits(caller.plan);
  auto refused = make_error(ErrorCode::rate_limited,
                            "too many requests: the " + std::string(limits.name)
                              + " plan allows this key "
                              + std::to_string(exchange.services.rate_limiter.rate(caller.plan))
                              + " a second; retry after " + std::to_string(*wait) + " s");
  return with_retry_after(charge_and_answer(caller, std::move(refused), 0, exchange), *wait);
}

// D10: the 404 of a path no route matches, or the 405 of a method other than GET and HEAD on a
// route; nullopt for a request to answer.
std::optional<Response> refuse_route(const Request& request, const Route* route) {
  if (route == nullptr) {
    // HEAD is GET without the body: the same message, so the same Content-Length (issue 9).
    const std::string method = request.method == "HEAD" ? "GET" : request.method;
    return error_body(make_error(ErrorCode::not_found, "no route " + method + " " + request.path));
  }
  if (request.method != "GET" && request.method != "HEAD") {
    auto response = error_body(make_error(ErrorCode::method_not_allowed,
                                          "method " + request.method + " is not allowed on "
                                            + request.path + ": use GET or HEAD"));
    response.set_header("Allow", "GET, HEAD");
    return response;
  }
  return std::nullopt;
}

// The 500 of an unexpected failure after authentication, with the balance of a metered `caller`
// when the key store can still be read (D7: X-Credits-Remaining on every such response).
Response internal_error(const Caller& caller, const std::exception& error, const Exchange& exchange) {
  Services& services = exchange.services;
  services.log_error(exchange.request.method + " " + exchange.request.path + ": " + error.what());
  auto response = error_body(make_error(ErrorCode::internal, k_internal_message));
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

// A data route's request from `caller` (authenticated, or trusted when `trusted`): the request
// rate (429, D14), then serve_data. An unexpected failure from here on is answered here, where
// the balance can be read.
Outcome serve_caller(Result<TypedRequest> parsed,
                     const Caller& caller,
                     bool trusted,
                     StoreView& view,
                     const Exchange& exchange) {
  if (!trusted) {
    if (auto refused = check_rate(caller, exchange)) {
      return std::move(*refused);
    }
  }
  try {
    return serve_data(std::move(parsed), caller, view, exchange);
  } catch (const store::StoreUnavailable&) {
    throw; // D15: a 503 without the balance, which cannot be read (finish_dispatch)
  } catch (const std::exception& error) {
    if (exchange.waiting == Waiting::forbidden && caller.metered) {
      return NeedsStore{}; // answered again where the balance may be read
    }
    return internal_error(caller, error, exchange);
  }
}

// Answer `exchange` for `trusted` (when set) or the request's key, in the D6 order: route (404),
// method (405), caller (401), then serve_caller for the rest. Public routes need no key.
Outcome route_request(const Exchange& exchange, const Caller* trusted) {
  const Request& request = exchange.request;
  std::vector<std::string> captures;
  const Route* route = match_route(request.path, captures);
  if (auto refused = refuse_route(request, route)) {
    return std::move(*refused);
  }
  Services& services = exchange.services;
  StoreView view(services.bars, services.catalog, services.histories, services.filler,
                 services.cache_histories, exchange.waiting, exchange.now);
  if (route->answer_public != nullptr) {
    auto response = route->answer_public(view, services);
    if (!response) {
      return NeedsStore{};
    }
    return tag_public(std::move(*response), request);
  }
  std::optional<Result<Caller>> caller = trusted != nullptr ? Result<Caller>(*trusted)
                                                            : find_caller(exchange);
  if (!caller) {
    return NeedsStore{};
  }
  if (!*caller) {
    return unauthorized(caller->error());
  }
  return serve_caller(route->parse(captures, QueryParams::parse(request.query)), **caller,
                      trusted != nullptr, view, exchange);
}

Response with_request_id(Response response, const std::string& request_id) {
  response.set_header("X-Request-Id", request_id);
  return response;
}

} // namespace

Step dispatch_in_memory(const Request& request, Services& services) {
  std::string request_id = auth::generate_uuid(services.random);
  const Exchange exchange{request, services, request_id, Waiting::forbidden, Clock::now()};
  auto outcome = route_request(exchange, nullptr);
  if (auto* response = std::get_if<Response>(&outcome)) {
    return with_request_id(std::move(*response), request_id);
  }
  if (auto* needed = std::get_if<ChargeNeeded>(&outcome)) {
    needed->finish = [finish = std::move(needed->finish),
                      request_id](const store::ChargeResult& result) {
      return with_request_id(finish(result), request_id);
    };
    return std::move(*needed);
  }
  return Deferred{std::move(request_id), exchange.rate_taken};
}


Response finish_dispatch(const Request& request, Services& services, const Deferred& deferred) {
  try {
    auto outcome = route_request(Exchange{request, services, deferred.request_id,
                                          Waiting::allowed, Clock::now(), deferred.rate_checked},
                                 nullptr);
    // A step that may wait resolves everything itself.
    return with_request_id(std::get<Response>(std::move(outcome)), deferred.request_id);
  } catch (const store::StoreUnavailable& error) {
    services.log_error(request.method + " " + request.path + ": " + error.what());
    return with_request_id(unavailable_body(), deferred.request_id);
  }
}

Response unavailable_response(const std::string& detail, Services& services) {
  services.log_error(detail);
  return with_request_id(unavailable_body(), auth::generate_uuid(services.random));
}

std::vector<store::ChargeResult> apply_charges(Services& services,
                                               std::span<const store::ChargeRequest> charges) {
  auto keys = services.keys.acquire();
  return keys->charge_batch(charges);
}

Response dispatch(const Request& request, Services& services) {
  return finish_dispatch(request, services, Deferred{auth::generate_uuid(services.random)});
}

Response dispatch_trusted(const Request& request, Services& services, const Caller& caller) {
  assert(!caller.metered); // a trusted caller is never charged
  const std::string request_id = auth::generate_uuid(services.random);
  auto outcome = route_request(
    Exchange{request, services, request_id, Waiting::allowed, Clock::now()}, &caller);
  return with_request_id(std::get<Response>(std::move(outcome)), request_id);
}

Response error_response(ErrorCode code, const std::string& message, Services& services) {
  return with_request_id(error_body(make_error(code, message)),
                         auth::generate_uuid(services.random));
}

std::optional<Result<TypedRequest>> parse_typed_request(std::string_view path,
                                                        std::string_view query) {
  std::vector<std::string> captures;
  const Route* route = match_route(path, captures);
  if (route == nullptr || route->parse == nullptr) {
    return std::nullopt;
  }
  return route->parse(captures, QueryParams::parse(query));
}

std::vector<std::string> route_patterns() {
  std::vector<std::string> out;
  for (const auto& route : k_routes) {
    out.emplace_back(route.pattern);
  }
  return out;
}

} // namespace ashare::api
