// The bytes of a response head: status line, the API's headers, and the headers the HTTP layer
// owns (Content-Length, Date, Connection, Content-Encoding, Vary, Accept-Ranges).
#pragma once

#include "core/api/request.hpp"

#include <chrono>
#include <string>
#include <string_view>

namespace ashare::server {

// How the HTTP layer frames one response.
struct Framing {
  std::size_t content_length = 0; // of the body as sent (compressed or not), also for HEAD
  bool gzipped = false;           // Content-Encoding: gzip
  bool close = false;             // Connection: close, then the connection ends
  bool keep_alive_1_0 = false;    // an HTTP/1.0 client asked to keep the connection
};

// Append the head of `response` framed by `framing` to `out`, with `date` as the Date header.
void append_response_head(std::string& out,
                          const api::Response& response,
                          const Framing& framing,
                          std::string_view date);

// Return the IMF-fixdate of `time` (RFC 9110), e.g. "Mon, 23 Nov 2026 13:26:54 GMT".
std::string http_date(std::chrono::system_clock::time_point time);

} // namespace ashare::server
