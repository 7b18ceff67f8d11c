// The whole HTTP API as one function: route, method, authentication, the request rate, the answer
// (api/answer: 400, 403), credits, in the check order of D6 (404, 405, 401, 429, 400, 403, 402;
// D17's 304 in place of the charge), and the body. Every response carries X-Request-Id.
//
// A server answers in two steps (issue 9): dispatch_in_memory() on its network thread, which never
// waits on SQLite; then, only when that step needs the store, finish_dispatch() or
// apply_charges() on a worker thread, where the request resumes at the step that waited.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/request.hpp"
#include "core/api/services.hpp"
#include "core/api/typed_request.hpp"
#include "core/error.hpp"

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ashare::api {

// Where a request stands in its steps: what they found so far (its route, its caller, its typed
// request, admitted or not), and the step it waits at (api/dispatch.cpp).
struct RequestProgress;

// A request that dispatch_in_memory() could not answer without reading the store.
struct Deferred {
  std::string request_id; // already chosen: the response keeps it
  // Where it waits; finish_dispatch() resumes it there, once (nullptr: from the first step).
  std::shared_ptr<RequestProgress> progress;
};

// A metered request answered but for its charge (D7), which waits on the key store's write lock.
// Several are applied together by apply_charges(); then finish() gives the response.
struct ChargeNeeded {
  store::ChargeRequest charge; // cost 0: only the balance is needed (X-Credits-Remaining)
  // Return the response given the charge's result; never touches the store. Callable once.
  std::function<Response(const store::ChargeResult& result)> finish;
};

using Step = std::variant<Response, Deferred, ChargeNeeded>;

// Answer `request` (any method, any path) from what `services` holds in memory, without reading
// SQLite or waiting on a lock. Returns Deferred when the answer needs the store (the catalog to
// refresh, a history or key to load): finish_dispatch() resumes it on a thread that may wait.
// Returns ChargeNeeded for a metered key: apply_charges() on such a thread, then its finish().
// Throws only on unexpected failures, which the caller answers with
// error_response(ErrorCode::internal, ...). Thread-safe.
Step dispatch_in_memory(const Request& request, Services& services);

// Answer `request`, deferred by dispatch_in_memory(), from the step that waited (not routed or
// authenticated again), reading and waiting on the store as needed. Once per Deferred.
Response finish_dispatch(const Request& request, Services& services, const Deferred& deferred);

// Apply `charges` (those of ChargeNeeded steps) in one transaction of the key store and return
// their results in order (D7: each charge atomic, never lost or applied twice, across processes
// too). Waits on SQLite's write lock. Throws on store failures (then nothing was charged).
std::vector<store::ChargeResult> apply_charges(Services& services,
                                               std::span<const store::ChargeRequest> charges);

// Return whether `error`, thrown by apply_charges(), says that the key store cannot be reached
// (D15: a 503, and nothing was charged) rather than that something else failed (a 500).
bool is_store_unreachable(const std::exception& error);

// Answer `request` in one call (both steps), waiting on the store as needed.
Response dispatch(const Request& request, Services& services);

// Answer `request` as dispatch() does, but for `caller`, already trusted (the local command line
// runs as an unmetered Pro caller): no Authorization header is needed and nothing is charged.
// Requires an unmetered `caller`.
Response dispatch_trusted(const Request& request, Services& services, const Caller& caller);

// The message of every 500 (D10): the detail of an unexpected failure is logged, never sent.
inline constexpr const char* k_internal_error_message = "internal error; the server logged the details";

// Return the error envelope of `code` with `message`, the status of the error table and a fresh
// X-Request-Id: for failures outside dispatch (exceptions, requests rejected before routing).
Response error_response(ErrorCode code, const std::string& message, Services& services);

// Return the 503 of D15 (the store cannot be reached: SERVICE_UNAVAILABLE, Retry-After: 1, no
// X-Credits-Remaining) with a fresh X-Request-Id, logging `detail` (never sent to clients).
Response unavailable_response(const std::string& detail, Services& services);

// Return the GET request of `path` (as sent) and `query` (raw) as the API parses it, or the error
// the API answers it with (400, after authentication: D6); nullopt for a path the API does not
// route, or whose route takes no typed request (the OpenAPI document).
std::optional<Result<TypedRequest>> parse_typed_request(std::string_view path,
                                                        std::string_view query);

// Return the path patterns the API serves (for the docs test), e.g. "/v1/ohlc/range/*/*/*/*".
std::vector<std::string> route_patterns();

} // namespace ashare::api
