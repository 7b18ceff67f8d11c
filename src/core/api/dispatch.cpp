#include "core/api/dispatch.hpp"

#include "core/api/bars_endpoint.hpp"
#include "core/api/caller.hpp"
#include "core/api/indicator_endpoint.hpp"
#include "core/api/json.hpp"
#include "core/api/openapi.hpp"
#include "core/api/store_view.hpp"

#include <array>
#include <cassert>
#include <chrono>
#include <optional>
#include <span>
#include <variant>
#include <string_view>
#include <vector>

namespace ashare::api {
namespace {

using Clock = std::chrono::steady_clock;

struct RouteContext {
  std::span<const std::string> captures; // the '*' segments of the pattern, decoded
  const QueryParams& params;
  const Caller& caller;
  StoreView& view;
  const Services& services;
  const std::string& request_id;
};

using Handler = Result<Prepared> (*)(const RouteContext&);

constexpr const char* k_internal_message = "internal error; the server logged the details";

struct Route {
  std::string_view pattern; // '/'-separated; a "*" segment matches any non-empty segment
  bool needs_key;
  Handler handler;
};

Prepared static_body(std::string body, int status = 200) {
  return Prepared{0, [body = std::move(body)](std::optional<std::int64_t>) { return body; }, false,
                  status};
}

Result<Prepared> handle_health(const RouteContext& context) {
  const auto catalog = context.view.catalog();
  if (!catalog) {
    return Prepared::defer();
  }
  // D15: a draining server says so, so that a load balancer takes it out.
  const bool available = !context.services.draining.load(std::memory_order_relaxed);
  return static_body(health_to_json(catalog->dataset, available), available ? 200 : 503);
}

Result<Prepared> handle_openapi(const RouteContext&) {
  return static_body(std::string(openapi_document()));
}

Result<Prepared> handle_bars(const RouteContext& context) {
  const BarsPath path{context.captures[0], context.captures[1], context.captures[2],
                      context.captures[3]};
  return prepare_bars(path, context.params, context.caller, context.view, context.request_id);
}

template <query::Indicator indicator> Result<Prepared> handle_indicator(const RouteContext& context) {
  return prepare_indicator(indicator, context.params, context.caller, context.view,
                           context.request_id);
}

constexpr std::array k_routes{
  Route{"/healthz", false, handle_health},
  Route{"/v1/openapi.json", false, handle_openapi},
  Route{"/v1/ohlc/range/*/*/*/*", true, handle_bars},
  Route{"/v1/indicators/ema", true, handle_indicator<query::Indicator::ema>},
  Route{"/v1/indicators/rsi", true, handle_indicator<query::Indicator::rsi>},
  Route{"/v1/indicators/sma", true, handle_indicator<query::Indicator::sma>},
};

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> segments;
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
  std::vector<std::string> segments;
  for (const auto segment : split_path(path)) {
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
        captures.push_back(std::move(segments[i]));
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

Response rendered(const Prepared& prepared, std::optional<std::int64_t> credits_charged) {
  Response response;
  response.status = prepared.status;
  response.body = prepared.render(credits_charged);
  return response;
}

// One request being answered: what the steps below share.
struct Exchange {
  const Request& request;
  Services& services;
  const std::string& request_id;
  Waiting waiting;
  Clock::time_point now;
};

// Return the caller of the request's key, an UNAUTHORIZED response, or nullopt when finding the
// key needs the store and waiting is forbidden.
std::optional<Result<Caller>> find_caller(const Exchange& exchange) {
  const auto digest = bearer_digest(exchange.request.authorization);
  if (!digest) {
    return digest.error();
  }
  auto& cache = exchange.services.key_cache;
  if (exchange.waiting == Waiting::forbidden) {
    const auto lookup = cache.find_fresh(*digest, exchange.now);
    if (!lookup.known) {
      return std::nullopt;
    }
    return caller_of(lookup.key);
  }
  auto keys = exchange.services.keys.acquire();
  return caller_of(cache.find(*digest, *keys, exchange.now));
}

// What one step of answering gives: the response, that the request needs the store (only when
// waiting is forbidden), or the charge it waits on (likewise).
struct NeedsStore {};
using Outcome = std::variant<Response, NeedsStore, ChargeNeeded>;

// Return the response of a metered request once its charge of `cost` has `result` (D7).
Response charged_response(const Result<Prepared>& prepared,
                          std::int64_t cost,
                          const store::ChargeResult& result) {
  if (result.revoked || !result.balance) {
    // Revoked (or deleted) since it was authenticated: the charge statement checks it too.
    return unauthorized(make_error(ErrorCode::unauthorized,
                                   result.revoked ? "API key revoked" : "invalid API key"));
  }
  Response response;
  if (!prepared) {
    response = error_body(prepared.error()); // errors cost nothing (D7)
  } else if (cost == 0) {
    response = rendered(*prepared, std::nullopt); // every symbol unknown: passes at any balance
  } else if (result.charged) {
    response = rendered(*prepared, cost);
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

// Answer an authenticated request: the endpoint, then D7's charge.
Outcome serve_caller(const Route& route, const RouteContext& context, const Exchange& exchange) {
  const Caller& caller = context.caller;
  auto prepared = route.handler(context);
  if (prepared && prepared->deferred) {
    return NeedsStore{};
  }
  if (!caller.metered) {
    return prepared ? rendered(*prepared, std::nullopt) : error_body(prepared.error());
  }
  // The balance is never kept in memory: even an answer that charges nothing reads it.
  const std::int64_t cost = prepared ? prepared->cost : 0;
  auto kept = std::make_shared<const Result<Prepared>>(std::move(prepared));
  ChargeNeeded needed{store::ChargeRequest{caller.key_id, cost},
                      [kept, cost](const store::ChargeResult& result) {
                        return charged_response(*kept, cost, result);
                      }};
  if (exchange.waiting == Waiting::forbidden) {
    return needed;
  }
  auto keys = exchange.services.keys.acquire();
  const auto results = keys->charge_batch(std::span(&needed.charge, 1));
  return needed.finish(results.front());
}

// Answer `exchange` for `trusted` (when set) or the request's key.
Outcome route_request(const Exchange& exchange, const Caller* trusted) {
  const Request& request = exchange.request;
  std::vector<std::string> captures;
  const Route* route = match_route(request.path, captures);
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
  const auto params = QueryParams::parse(request.query);
  Services& services = exchange.services;
  StoreView view(services.bars, services.catalog, services.histories, exchange.waiting,
                 exchange.now);
  if (!route->needs_key || trusted != nullptr) {
    const Caller caller = trusted != nullptr ? *trusted : Caller{};
    auto prepared =
      route->handler(RouteContext{captures, params, caller, view, services, exchange.request_id});
    if (!prepared) {
      return error_body(prepared.error());
    }
    if (prepared->deferred) {
      return NeedsStore{};
    }
    return rendered(*prepared, std::nullopt);
  }

  const auto caller = find_caller(exchange);
  if (!caller) {
    return NeedsStore{};
  }
  if (!*caller) {
    return unauthorized(caller->error());
  }
  const RouteContext context{captures, params, **caller, view, services, exchange.request_id};
  // D7 wants X-Credits-Remaining on every response after authentication, a 500 included, so an
  // unexpected failure from here on is answered here, where the balance can be read.
  try {
    return serve_caller(*route, context, exchange);
  } catch (const std::exception& error) {
    if (exchange.waiting == Waiting::forbidden && (*caller)->metered) {
      return NeedsStore{}; // answered again where the balance may be read
    }
    services.log_error(request.method + " " + request.path + ": " + error.what());
    auto response = error_body(make_error(ErrorCode::internal, k_internal_message));
    if ((*caller)->metered) {
      try {
        const store::ChargeRequest read_balance{(*caller)->key_id, 0};
        auto keys = services.keys.acquire();
        set_credits_header(response,
                           keys->charge_batch(std::span(&read_balance, 1)).front().balance);
      } catch (const std::exception&) {
        // the store is failing: answer without the balance rather than not at all
      }
    }
    return response;
  }
}

Response with_request_id(Response response, const std::string& request_id) {
  response.set_header("X-Request-Id", request_id);
  return response;
}

} // namespace

Step dispatch_in_memory(const Request& request, Services& services) {
  std::string request_id = auth::generate_uuid(services.random);
  auto outcome =
    route_request(Exchange{request, services, request_id, Waiting::forbidden, Clock::now()}, nullptr);
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
  return Deferred{std::move(request_id)};
}

Response finish_dispatch(const Request& request, Services& services, const Deferred& deferred) {
  auto outcome = route_request(
    Exchange{request, services, deferred.request_id, Waiting::allowed, Clock::now()}, nullptr);
  // A step that may wait resolves everything itself.
  return with_request_id(std::get<Response>(std::move(outcome)), deferred.request_id);
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

std::vector<std::string> route_patterns() {
  std::vector<std::string> out;
  for (const auto& route : k_routes) {
    out.emplace_back(route.pattern);
  }
  return out;
}

} // namespace ashare::api
