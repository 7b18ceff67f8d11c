// The whole HTTP API as one function: route, method, authentication, the endpoint, credits, in
// the check order of D6 (404, 405, 401, 400, 403, 402). Every response carries X-Request-Id.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/request.hpp"
#include "core/api/services.hpp"
#include "core/error.hpp"

#include <string>

namespace ashare::api {

// Answer `request` (any method, any path). Throws only on unexpected failures (SQLite I/O, ...),
// which the caller turns into error_response(ErrorCode::internal, ...).
Response dispatch(const Request& request, Services& services);

// Answer `request` as dispatch() does, but for `caller`, already trusted (the local command line
// runs as an unmetered Pro caller): no Authorization header is needed and nothing is charged.
// Requires an unmetered `caller`.
Response dispatch_trusted(const Request& request, Services& services, const Caller& caller);

// Return the error envelope of `code` with `message`, the status of the error table and a fresh
// X-Request-Id: for failures outside dispatch (exceptions, requests rejected before routing).
Response error_response(ErrorCode code, const std::string& message, Services& services);

// Return the path patterns the API serves (for the docs test), e.g. "/v1/ohlc/range/*/*/*/*".
std::vector<std::string> route_patterns();

} // namespace ashare::api
