// The seam between cpp-httplib and the core: every request goes to api::dispatch, and what comes
// back is written out unchanged. Also the error and exception handlers and the access log.
#pragma once

#include "core/api/request.hpp"
#include "core/api/services.hpp"

#include <httplib.h>

namespace ashare::cli {

// Return the core's view of `request`: method, decoded path, raw query and Authorization header.
api::Request to_api_request(const httplib::Request& request);

// Copy `response` into `out` (status, headers, body with its content type).
void write_response(api::Response response, httplib::Response& out);

// Route every request of `server` through api::dispatch on `services`, answer exceptions with
// 500 INTERNAL_ERROR (detail logged, never sent), fill bodies of errors cpp-httplib raises itself,
// and log one line per request on stderr (method, path, status, microseconds, request id).
void install_api(httplib::Server& server, api::Services& services);

} // namespace ashare::cli
