#include "core/api/dispatch.hpp"

#include "core/api/answer.hpp"
#include "core/api/caller.hpp"
#include "core/api/charging.hpp"
#include "core/api/etag.hpp"
#include "core/api/json.hpp"
#include "core/api/openapi.hpp"
#include "core/api/request_checks.hpp"
#include "core/api/responses.hpp"
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

// A public route answers from what it has: no key, no plan, no credits. nullopt: it needs the
// store and `view` may not wait.
using PublicAnswer = std::optional<Response> (*)(StoreView& view, Services& services);

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

// One request being answered: what the steps below share. A step gives the response, the charge
// it waits on (ChargeNeeded), or Deferred{} when it needs the store and waiting is forbidden.
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
Step serve_data(Result<TypedRequest> parsed,
                const Caller& caller,
                StoreView& view,
                const Exchange& exchange) {
  auto admitted = admit(std::move(parsed), caller, view);
  if (auto* error = std::get_if<Error>(&admitted)) {
    return charge_and_answer(caller, std::move(*error), 0, {}, exchange.services,
                             exchange.waiting);
  }
  if (std::holds_alternative<Unanswered>(admitted)) {
    return Deferred{};
  }
  const auto& request = std::get<Admitted>(admitted);
  auto etag = data_etag(request.catalog->dataset, to_target(request.request), caller);
  if (is_not_modified(exchange.request, etag)) {
    // No history read either.
    return answer_not_modified(caller, std::move(etag), exchange.services, exchange.waiting);
  }
  auto answered = answer_admitted(request, view, exchange.request_id);
  if (std::holds_alternative<Unanswered>(answered)) {
    return Deferred{};
  }
  return charge_and_answer(caller, render_of(std::move(answered)), credit_cost(request),
                           std::move(etag), exchange.services, exchange.waiting);
}

// Return `outcome` with a Retry-After of `seconds`, now or once its charge is applied.
Step with_retry_after(Step outcome, std::int64_t seconds) {
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
std::optional<Step> check_rate(const Caller& caller, const Exchange& exchange) {
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
  return with_retry_after(charge_and_answer(caller, std::move(refused), 0, {}, exchange.services,
                                            exchange.waiting),
                          *wait);
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

// A data route's request from `caller` (authenticated, or trusted when `trusted`): the request
// rate (429, D14), then serve_data. An unexpected failure from here on is answered here, where
// the balance can be read.
Step serve_caller(Result<TypedRequest> parsed,
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
      return Deferred{}; // answered again where the balance may be read
    }
    return internal_error(caller,
                          exchange.request.method + " " + exchange.request.path + ": "
                            + error.what(),
                          exchange.services);
  }
}

// Answer `exchange` for `trusted` (when set) or the request's key, in the D6 order: route (404),
// method (405), caller (401), then serve_caller for the rest. Public routes need no key.
Step route_request(const Exchange& exchange, const Caller* trusted) {
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
      return Deferred{};
    }
    return tag_public(std::move(*response), request);
  }
  std::optional<Result<Caller>> caller = trusted != nullptr ? Result<Caller>(*trusted)
                                                            : find_caller(exchange);
  if (!caller) {
    return Deferred{};
  }
  if (!*caller) {
    return unauthorized(caller->error());
  }
  return serve_caller(route->parse(captures, QueryParams::parse(request.query)), **caller,
                      trusted != nullptr, view, exchange);
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
