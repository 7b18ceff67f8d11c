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
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

// The routes (a row each), then a request's steps in D6's order (a row each), then the entry
// points that run them.
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

Result<TypedRequest> parse_members_route(std::span<const std::string> captures,
                                        const QueryParams& params) {
  return typed(parse_members_request(captures[0], params));
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
  Route{"/v1/indices/*/members", nullptr, parse_members_route}, // D20
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

// The steps of a request, in D6's order: its route (404, 405), a public route's answer, the key
// (401), the request rate (429, D14), the parse and api::admit (400, 403), D17's tag (304 in
// place of the charge), the answer and its charge (402, D7). `failed` answers an unexpected
// failure after authentication.
enum class Stage { route, public_answer, key, rate, parse, admit, revalidate, answer, failed };

} // namespace

// How far a request has come: what its steps found, and the step to run next. A request that must
// wait on the store keeps it (Deferred) and resumes at the step that waited.
struct RequestProgress {
  Stage stage = Stage::route;
  const Route* route = nullptr;
  std::vector<std::string> captures; // the route's "*" segments, decoded
  std::optional<Caller> caller;      // once authenticated (trusted: from the start)
  bool trusted = false;              // dispatch_trusted(): no key, no request rate
  std::optional<Result<TypedRequest>> parsed;
  std::optional<Admitted> admitted;
  std::string etag;    // of the admitted request's 200 (D17)
  std::string failure; // what failed (Stage::failed), for the log
};

namespace {

// One pass over a request's steps: on a network thread (waiting forbidden), which stops at a step
// that needs the store, or on a worker (waiting allowed), which ends with the response.
struct Pass {
  const Request& request;
  Services& services;
  const std::string& request_id;
  Waiting waiting;
  Clock::time_point now;
  StoreView view; // what this pass's steps read
};

// Return a pass over `request` (identified by `request_id`) as `waiting` allows, starting now.
Pass pass_of(const Request& request,
             Services& services,
             const std::string& request_id,
             Waiting waiting) {
  const auto now = Clock::now();
  return Pass{request,
              services,
              request_id,
              waiting,
              now,
              StoreView(services.bars, services.catalog, services.histories, services.filler,
                        services.cache_histories, waiting, now)};
}

// What a step gives: the response (or the charge it waits on), Deferred{} when it must wait on
// the store (waiting forbidden), or nullopt: on to the next step.
using StepResult = std::optional<Step>;

// Return the caller of the request's key, an UNAUTHORIZED response, or nullopt when finding the
// key needs the store and waiting is forbidden.
std::optional<Result<Caller>> find_caller(const Pass& pass) {
  const auto credential = bearer_credential(pass.request.authorization);
  if (!credential) {
    return credential.error();
  }
  auto& cache = pass.services.key_cache;
  if (pass.waiting == Waiting::forbidden) {
    const auto lookup = cache.find_fresh(*credential, pass.now);
    if (!lookup.known) {
      return std::nullopt;
    }
    return caller_of(lookup.key);
  }
  try {
    auto keys = pass.services.keys.acquire();
    return caller_of(cache.find(*credential, *keys, pass.now));
  } catch (const store::StoreUnavailable&) {
    // D15: a key already known is still answered (a metered one is refused by its charge).
    const auto remembered = cache.find_remembered(*credential);
    if (!remembered.known) {
      throw;
    }
    return caller_of(remembered.key);
  }
}

// Return `step` with a Retry-After of `seconds`, now or once its charge is applied.
Step with_retry_after(Step step, std::int64_t seconds) {
  if (auto* response = std::get_if<Response>(&step)) {
    response->set_header("Retry-After", std::to_string(seconds));
  } else if (auto* needed = std::get_if<ChargeNeeded>(&step)) {
    needed->finish = [finish = std::move(needed->finish),
                      seconds](const store::ChargeResult& result) {
      auto answered = finish(result);
      if (answered.status == 429) { // not when the charge found the key revoked meanwhile
        answered.set_header("Retry-After", std::to_string(seconds));
      }
      return answered;
    };
  }
  return step;
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
      [](MembersResponse& members) -> Result<Render> {
        return Render([members = std::move(members)](std::optional<std::int64_t>) {
          return Body(members_to_json(members));
        });
      },
      [](auto&) -> Result<Render> {
        return make_error(ErrorCode::internal, "a data route answered without data");
      }},
    answered);
}

// D10: the route of the path (404) and its method (405).
StepResult route_step(RequestProgress& progress, Pass& pass) {
  progress.route = match_route(pass.request.path, progress.captures);
  if (auto refused = refuse_route(pass.request, progress.route)) {
    return std::move(*refused);
  }
  return std::nullopt;
}

// A public route answers without a key (the health check, D15; the OpenAPI document), its 200
// tagged by its body (D17). The others go on.
StepResult public_answer_step(RequestProgress& progress, Pass& pass) {
  if (progress.route->answer_public == nullptr) {
    return std::nullopt;
  }
  auto response = progress.route->answer_public(pass.view, pass.services);
  if (!response) {
    return Deferred{};
  }
  return tag_public(std::move(*response), pass.request);
}

// D5: the caller of the request's key (401), unless one is trusted.
StepResult key_step(RequestProgress& progress, Pass& pass) {
  if (progress.caller) {
    return std::nullopt;
  }
  auto caller = find_caller(pass);
  if (!caller) {
    return Deferred{};
  }
  if (!*caller) {
    return unauthorized(caller->error());
  }
  progress.caller = **caller;
  return std::nullopt;
}

// D14: a token of the caller's bucket, taken once per request; the 429 when there is none, which
// charges nothing. A trusted caller is not limited.
StepResult rate_step(RequestProgress& progress, Pass& pass) {
  if (progress.trusted) {
    return std::nullopt;
  }
  const Caller& caller = *progress.caller;
  auto& limiter = pass.services.rate_limiter;
  const auto wait = limiter.take(caller.key_id, caller.plan, pass.now);
  if (!wait) {
    return std::nullopt;
  }
  auto refused = make_error(ErrorCode::rate_limited,
                            "too many requests: the "
                              + std::string(auth::plan_limits(caller.plan).name)
                              + " plan allows this key " + std::to_string(limiter.rate(caller.plan))
                              + " a second; retry after " + std::to_string(*wait) + " s");
  return with_retry_after(
    charge_and_answer(caller, std::move(refused), 0, {}, pass.services, pass.waiting), *wait);
}

// The route's typed request, or its error, which admit() answers (400).
StepResult parse_step(RequestProgress& progress, Pass& pass) {
  progress.parsed = progress.route->parse(progress.captures, QueryParams::parse(pass.request.query));
  return std::nullopt;
}

// D6 after the key (api::admit): 400, 403, an error charging nothing (D7).
StepResult admit_step(RequestProgress& progress, Pass& pass) {
  const Caller& caller = *progress.caller;
  auto admitted = admit(std::move(*progress.parsed), caller, pass.view);
  if (auto* error = std::get_if<Error>(&admitted)) {
    return charge_and_answer(caller, std::move(*error), 0, {}, pass.services, pass.waiting);
  }
  if (std::holds_alternative<Unanswered>(admitted)) {
    return Deferred{}; // admit() left progress.parsed as it was
  }
  progress.admitted.emplace(std::get<Admitted>(std::move(admitted)));
  return std::nullopt;
}

// D17: the tag of the 200, after every check of D6; a 304 in place of the charge, with no
// history read either.
StepResult revalidate_step(RequestProgress& progress, Pass& pass) {
  const auto& admitted = *progress.admitted;
  progress.etag = data_etag(admitted.catalog->dataset, to_target(admitted.request), *progress.caller);
  if (is_not_modified(pass.request, progress.etag)) {
    return answer_not_modified(*progress.caller, std::move(progress.etag), pass.services,
                               pass.waiting);
  }
  return std::nullopt;
}

// The answer (api::answer_admitted), its price and its charge (402, D7). A request resumed on a
// worker whose store has moved on since it was admitted is admitted again, under what it reads.
StepResult answer_step(RequestProgress& progress, Pass& pass) {
  const auto& admitted = *progress.admitted;
  if (!pass.view.reads_generation_of(*admitted.catalog, symbols_of(admitted.request))) {
    progress.stage = Stage::parse;
    return std::nullopt;
  }
  auto answered = answer_admitted(admitted, pass.view, pass.request_id);
  if (std::holds_alternative<Unanswered>(answered)) {
    return Deferred{};
  }
  auto rendered = render_of(std::move(answered));
  const auto cost = rendered ? credit_cost(admitted) : 0; // an error costs nothing (D20's 404)
  return charge_and_answer(*progress.caller, std::move(rendered), cost, std::move(progress.etag),
                           pass.services, pass.waiting);
}

// The 500 of an unexpected failure after authentication, where the balance can be read (D7).
StepResult failed_step(RequestProgress& progress, Pass& pass) {
  return internal_error(*progress.caller, progress.failure, pass.services);
}

// The steps, a row per Stage, in its order.
constexpr std::array<StepResult (*)(RequestProgress&, Pass&), 9> k_steps{
  route_step, public_answer_step, key_step,    rate_step,  parse_step,
  admit_step, revalidate_step,    answer_step, failed_step,
};
static_assert(k_steps.size() == static_cast<std::size_t>(Stage::failed) + 1);

// Run the steps of `progress` from where it stands until one answers, or, waiting forbidden,
// one must wait on the store: then `progress` stands at that step, to resume there. An
// unexpected failure from admit() on is answered with the balance (D7), on a worker for a metered
// caller; before, or D15's store out of reach, it is the caller's to answer.
Step run(RequestProgress& progress, Pass& pass) {
  Stage stage = progress.stage;
  try {
    while (true) {
      stage = progress.stage;
      progress.stage = static_cast<Stage>(static_cast<int>(stage) + 1); // unless the step says
      if (auto step = k_steps[static_cast<std::size_t>(stage)](progress, pass)) {
        if (std::holds_alternative<Deferred>(*step)) {
          progress.stage = stage;
        }
        return std::move(*step);
      }
    }
  } catch (const store::StoreUnavailable&) {
    throw;
  } catch (const std::exception& error) {
    if (stage < Stage::admit) {
      throw;
    }
    progress.stage = Stage::failed;
    progress.failure = pass.request.method + " " + pass.request.path + ": " + error.what();
    if (pass.waiting == Waiting::forbidden && progress.caller->metered) {
      return Deferred{};
    }
    return *failed_step(progress, pass);
  }
}

// Run `progress` to its response with waiting allowed; D15's 503 when the store is out of reach.
Response answer_waiting(const Request& request,
                        Services& services,
                        const std::string& request_id,
                        RequestProgress& progress) {
  try {
    auto pass = pass_of(request, services, request_id, Waiting::allowed);
    // A pass that may wait resolves everything itself.
    return with_request_id(std::get<Response>(run(progress, pass)), request_id);
  } catch (const store::StoreUnavailable& error) {
    services.log_error(request.method + " " + request.path + ": " + error.what());
    return with_request_id(unavailable_body(), request_id);
  }
}

} // namespace

Step dispatch_in_memory(const Request& request, Services& services) {
  std::string request_id = auth::generate_uuid(services.random);
  RequestProgress progress;
  auto step = [&] {
    auto pass = pass_of(request, services, request_id, Waiting::forbidden);
    return run(progress, pass);
  }();
  if (auto* response = std::get_if<Response>(&step)) {
    return with_request_id(std::move(*response), request_id);
  }
  if (auto* needed = std::get_if<ChargeNeeded>(&step)) {
    needed->finish = [finish = std::move(needed->finish),
                      request_id](const store::ChargeResult& result) {
      return with_request_id(finish(result), request_id);
    };
    return std::move(*needed);
  }
  return Deferred{std::move(request_id), std::make_shared<RequestProgress>(std::move(progress))};
}

Response finish_dispatch(const Request& request, Services& services, const Deferred& deferred) {
  RequestProgress from_the_top; // a Deferred made without dispatch_in_memory()
  return answer_waiting(request, services, deferred.request_id,
                        deferred.progress ? *deferred.progress : from_the_top);
}

Response unavailable_response(const std::string& detail, Services& services) {
  services.log_error(detail);
  return with_request_id(unavailable_body(), auth::generate_uuid(services.random));
}

Response dispatch(const Request& request, Services& services) {
  RequestProgress progress;
  return answer_waiting(request, services, auth::generate_uuid(services.random), progress);
}

Response dispatch_trusted(const Request& request, Services& services, const Caller& caller) {
  assert(!caller.metered); // a trusted caller is never charged
  const std::string request_id = auth::generate_uuid(services.random);
  RequestProgress progress;
  progress.caller = caller;
  progress.trusted = true;
  auto pass = pass_of(request, services, request_id, Waiting::allowed);
  return with_request_id(std::get<Response>(run(progress, pass)), request_id);
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
