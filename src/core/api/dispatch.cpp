#include "core/api/dispatch.hpp"

#include "core/api/bars_endpoint.hpp"
#include "core/api/caller.hpp"
#include "core/api/indicator_endpoint.hpp"
#include "core/api/json.hpp"
#include "core/api/openapi.hpp"

#include <array>
#include <cassert>
#include <span>
#include <string_view>
#include <vector>

namespace ashare::api {
namespace {

struct RouteContext {
  std::span<const std::string_view> captures; // the '*' segments of the pattern
  const QueryParams& params;
  const Caller& caller;
  Services& services;
  const std::string& request_id;
};

using Handler = Result<Prepared> (*)(const RouteContext&);

constexpr const char* k_internal_message = "internal error; the server logged the details";

struct Route {
  std::string_view pattern; // '/'-separated; a "*" segment matches any non-empty segment
  bool needs_key;
  Handler handler;
};

Prepared static_body(std::string body) {
  return Prepared{0, [body = std::move(body)](std::optional<std::int64_t>) { return body; }};
}

Result<Prepared> handle_health(const RouteContext& context) {
  auto bars = context.services.bars.acquire();
  store::ReadTransaction snapshot(*bars);
  return static_body(health_to_json(context.services.catalog.current(*bars)->dataset));
}

Result<Prepared> handle_openapi(const RouteContext&) {
  return static_body(std::string(openapi_document()));
}

Result<Prepared> handle_bars(const RouteContext& context) {
  const BarsPath path{std::string(context.captures[0]), std::string(context.captures[1]),
                      std::string(context.captures[2]), std::string(context.captures[3])};
  auto bars = context.services.bars.acquire();
  return prepare_bars(path, context.params, context.caller, *bars, context.services.catalog,
                      context.services.bars_cache, context.request_id);
}

template <query::Indicator indicator> Result<Prepared> handle_indicator(const RouteContext& context) {
  auto bars = context.services.bars.acquire();
  return prepare_indicator(indicator, context.params, context.caller, *bars,
                           context.services.catalog, context.services.bars_cache,
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

// Return the route matching `path` and fill `captures`, or nullptr (a trailing slash matches
// nothing, D10).
const Route* match_route(std::string_view path, std::vector<std::string_view>& captures) {
  // The patterns are split once, not per request.
  static const auto k_patterns = [] {
    std::vector<std::vector<std::string_view>> patterns;
    for (const auto& route : k_routes) {
      patterns.push_back(split_path(route.pattern));
    }
    return patterns;
  }();
  const auto segments = split_path(path);
  for (std::size_t r = 0; r < k_routes.size(); ++r) {
    const auto& route = k_routes[r];
    const auto& pattern = k_patterns[r];
    if (pattern.size() != segments.size() || segments.empty()) {
      continue;
    }
    captures.clear();
    bool matched = true;
    for (std::size_t i = 0; i < pattern.size() && matched; ++i) {
      if (pattern[i] == "*") {
        matched = !segments[i].empty();
        captures.push_back(segments[i]);
      } else {
        matched = pattern[i] == segments[i];
      }
    }
    if (matched) {
      return &route;
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

void set_credits_header(Response& response, const std::optional<std::int64_t>& balance) {
  if (balance) {
    response.set_header("X-Credits-Remaining", std::to_string(*balance));
  }
}

Response serve_caller(const Route& route, const RouteContext& context, store::KeyStore& keys);

Response route_request(const Request& request,
                       Services& services,
                       const std::string& request_id,
                       const Caller* trusted) {
  std::vector<std::string_view> captures;
  const Route* route = match_route(request.path, captures);
  if (route == nullptr) {
    return error_body(
      make_error(ErrorCode::not_found, "no route " + request.method + " " + request.path));
  }
  if (request.method != "GET" && request.method != "HEAD") {
    auto response = error_body(make_error(ErrorCode::method_not_allowed,
                                          "method " + request.method + " is not allowed on "
                                            + request.path + ": use GET or HEAD"));
    response.set_header("Allow", "GET, HEAD");
    return response;
  }
  const auto params = QueryParams::parse(request.query);
  if (!route->needs_key || trusted != nullptr) {
    const Caller caller = trusted != nullptr ? *trusted : Caller{};
    auto prepared = route->handler(RouteContext{captures, params, caller, services, request_id});
    if (!prepared) {
      return error_body(prepared.error());
    }
    Response response;
    response.body = prepared->render(std::nullopt);
    return response;
  }

  auto keys = services.keys.acquire();
  const auto caller = authenticate(request.authorization, *keys);
  if (!caller) {
    auto response = error_body(caller.error());
    response.set_header("WWW-Authenticate", "Bearer");
    return response;
  }
  // D7 wants X-Credits-Remaining on every response after authentication, a 500 included, so an
  // unexpected failure from here on is answered here, where the balance is known.
  try {
    return serve_caller(*route, RouteContext{captures, params, *caller, services, request_id},
                        *keys);
  } catch (const std::exception& error) {
    services.log_error(request.method + " " + request.path + ": " + error.what());
    auto response = error_body(make_error(ErrorCode::internal, k_internal_message));
    set_credits_header(response, caller->balance);
    return response;
  }
}

Response serve_caller(const Route& route, const RouteContext& context, store::KeyStore& keys) {
  const Caller& caller = context.caller;
  auto prepared = route.handler(context);
  if (!prepared) {
    auto response = error_body(prepared.error());
    set_credits_header(response, caller.balance);
    return response;
  }
  // D7: charge only a request that succeeds, in one conditional update; a cost of 0 always passes.
  std::optional<std::int64_t> balance = caller.balance;
  std::optional<std::int64_t> charged;
  if (balance && prepared->cost > 0) {
    balance = keys.charge(caller.key_id, prepared->cost);
    if (!balance) {
      const auto current = keys.load_balance(caller.key_id);
      auto response = error_body(make_error(
        ErrorCode::insufficient_credits,
        "insufficient credits: this request costs " + std::to_string(prepared->cost)
          + ", the balance is " + std::to_string(current.value_or(0))));
      set_credits_header(response, current);
      return response;
    }
    charged = prepared->cost;
  }
  Response response;
  response.body = prepared->render(charged);
  set_credits_header(response, balance);
  return response;
}

} // namespace

Response dispatch(const Request& request, Services& services) {
  const std::string request_id = auth::generate_uuid(services.random);
  Response response = route_request(request, services, request_id, nullptr);
  response.set_header("X-Request-Id", request_id);
  return response;
}

Response dispatch_trusted(const Request& request, Services& services, const Caller& caller) {
  assert(!caller.balance); // a trusted caller is never charged
  const std::string request_id = auth::generate_uuid(services.random);
  Response response = route_request(request, services, request_id, &caller);
  response.set_header("X-Request-Id", request_id);
  return response;
}

Response error_response(ErrorCode code, const std::string& message, Services& services) {
  Response response = error_body(make_error(code, message));
  response.set_header("X-Request-Id", auth::generate_uuid(services.random));
  return response;
}

std::vector<std::string> route_patterns() {
  std::vector<std::string> out;
  for (const auto& route : k_routes) {
    out.emplace_back(route.pattern);
  }
  return out;
}

} // namespace ashare::api
