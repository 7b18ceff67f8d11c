// The HTTP surface seen from the core: a request as method, path, raw query and credential, and a
// response as status, headers and body. The server (src/server) converts to and from bytes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ashare::api {

struct Request {
  std::string method;                       // "GET", "HEAD", ...
  std::string path;                         // as sent (percent-encoded), without the query
  std::string query;                        // raw query string, without '?'
  std::optional<std::string> authorization; // the Authorization header, if sent
};

struct Response {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers; // besides Content-Type
  std::string content_type = "application/json";
  std::string body;

  void set_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

} // namespace ashare::api
