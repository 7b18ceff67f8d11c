// The OpenAPI 3.1 description served at /v1/openapi.json (D11), written by hand in openapi.json
// beside this file and compiled into the binary.
#pragma once

#include <string_view>

namespace ashare::api {

// Return the OpenAPI document (JSON text).
std::string_view openapi_document();

} // namespace ashare::api
