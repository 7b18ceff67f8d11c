// The settings of `ashare serve` that the HTTP layer uses: where to listen, how many threads and
// connections, the limits of a request and the deadlines of a connection (issue 9).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace ashare::server {

struct Limits {
  std::size_t max_request_line = 8192; // bytes; beyond it 414
  std::size_t max_header_bytes = 8192; // the header fields together; beyond it 431
  std::size_t max_header_count = 100;  // beyond it 431
};

struct Timeouts {
  std::chrono::milliseconds header{10'000}; // a request's headers complete within it, else 408
  std::chrono::milliseconds idle{60'000};   // a keep-alive connection without a request is closed
  std::chrono::milliseconds write{30'000};  // a client that does not read its response is dropped
  std::chrono::milliseconds drain{5'000};   // after SIGTERM, requests in flight finish within it
};

struct TlsFiles {
  std::filesystem::path certificate; // PEM chain
  std::filesystem::path key;         // PEM private key of the certificate
};

struct ServerOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;             // 0: the system picks a free port
  std::size_t threads = 1;                // network threads, one io_context each
  std::size_t max_connections = 10'000;   // beyond it new connections are closed at once
  std::optional<TlsFiles> tls;            // serve HTTPS
  Limits limits;
  Timeouts timeouts;
};

} // namespace ashare::server
