// The HTTP surface seen from the core: a request as method, path, raw query and credential, and a
// response as status, headers and body. The server (src/server) converts to and from bytes.
#pragma once

#include "core/api/body.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ashare::api {

struct Request {
  std::string method;                       // "GET", "HEAD", ...
  std::string path;                         // as sent (percent-encoded), without the query
  std::string query;                        // raw query string, without '?'
  std::optional<std::string> authorization; // the Authorization header, if sent
  std::optional<std::string> if_none_match = {}; // the If-None-Match header(s), if sent (D17)
};

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers; // besides Content-Type
  std::string content_type = "application/json";
  Body body; // the JSON, with cached pieces spliced in (api/body)

  void set_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }

  // Return the value of the first header called `name` (exact spelling), or nullptr.
  const std::string* find_header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
      if (key == name) {
        return &value;
      }
    }
    return nullptr;
  }
};

} // namespace ashare::api
