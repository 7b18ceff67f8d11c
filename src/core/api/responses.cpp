#include "core/api/responses.hpp"

#include "core/api/json.hpp"

namespace ashare::api {

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

Response unavailable_body() {
  auto response = error_body(make_error(
    ErrorCode::service_unavailable, "service unavailable: the store cannot be reached; retry later"));
  response.set_header("Retry-After", "1");
  return response;
}

} // namespace ashare::api
