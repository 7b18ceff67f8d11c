// HTTP helpers for the black-box tests: one request per call through httplib::Client on
// 127.0.0.1, and a raw-socket exchange for the cases where the exact bytes matter (HEAD).
#pragma once

#include <chrono>
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace bb {

struct Reply {
  int status = 0; // 0 when the request failed at the transport level
  std::string transport_error;
  httplib::Headers headers;
  std::string body;

  bool has_header(const std::string& name) const { return headers.count(name) > 0; }
  std::size_t header_count(const std::string& name) const { return headers.count(name); }
  std::string header(const std::string& name) const; // "" when absent
  nlohmann::json json() const;                       // throws on a body that is not JSON
};

// Send `method target` (target = path and query, sent as is) to 127.0.0.1:`port`, with
// `Authorization: Bearer KEY` when `key` is given.
Reply request(int port,
              const std::string& target,
              const std::optional<std::string>& key = std::nullopt,
              const std::string& method = "GET");

// The same with a literal Authorization header value (or none).
Reply request_with_authorization(int port,
                                 const std::string& target,
                                 const std::optional<std::string>& authorization,
                                 const std::string& method = "GET");

// The same with `key` and the extra request headers `headers` (e.g. If-None-Match).
Reply request_with_headers(int port,
                           const std::string& target,
                           const std::optional<std::string>& key,
                           const httplib::Headers& headers,
                           const std::string& method = "GET");

// Send `raw` (one complete HTTP request) to 127.0.0.1:`port` and return what the server sends.
// A request saying `Connection: close` reads until the server closes. Otherwise reading stops
// once the first response is complete (by Content-Length; headers only for HEAD) and nothing
// more arrived within `settle`, so a kept-alive connection does not cost the keep-alive timeout.
std::string raw_exchange(int port,
                         const std::string& raw,
                         std::chrono::milliseconds settle = std::chrono::milliseconds{0});

// The bars path for [from, to] with the given query (without '?').
std::string bars_target(const std::string& from, const std::string& to, const std::string& query);

} // namespace bb
