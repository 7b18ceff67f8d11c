// The responses that several steps of the HTTP API build (api/dispatch, api/charging): an error's
// envelope with its status (D10), the 401 (D5), the 503 (D15), and the request id every response
// carries.
#pragma once

#include "core/api/request.hpp"
#include "core/error.hpp"

#include <string>
#include <utility>

namespace ashare::api {

// Return `body` as a response of `status`. (Inline, as with_request_id(): every answer takes them.)
inline Response body_response(Body body, int status = 200) {
  Response response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

// Return the response of `error`: the status of the error table and the envelope (D10).
Response error_body(const Error& error);

// Return the 401 of `error`, with WWW-Authenticate: Bearer (D5).
Response unauthorized(const Error& error);

// Return the 503 of D15 (the store cannot be reached; Retry-After: 1), without a request id.
Response unavailable_body();

// Return `response` with X-Request-Id: `request_id`.
inline Response with_request_id(Response response, const std::string& request_id) {
  response.set_header("X-Request-Id", request_id);
  return response;
}

} // namespace ashare::api
