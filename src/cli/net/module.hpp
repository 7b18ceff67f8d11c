// The network module: the HTTP(S) and TCP clients of remote mode and the data sources, and the
// server of `serve`, with the libraries only they need (OpenSSL's libssl, zlib, Boost.Beast and
// Asio). They are linked into a second program, `ashare-net`, never into `ashare`: linked in,
// those libraries cost every command about 2 ms of process start, more than a local one-year query
// takes (issue 11, P2). `ashare` runs a command that needs the network in `ashare-net` instead
// (cli/net/hand_over.hpp), so each process holds one C++ runtime, linked in statically (issue 43).
//
// The boundary is one table of functions (issue 31). Every function is noexcept and reports
// failure as a value: an exception never crosses it. What crosses is plain data (strings, byte
// buffers, small structs of the standard library), never a core object. Callers use the wrappers
// of cli/net/client.hpp.
#pragma once

#include "server/options.hpp"

#include "cli/net/proxy.hpp"
#include "core/auth/rate_limiter.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ashare::cli::net {

// Why an exchange or a connection failed, short of an answer: the text completes
// "cannot reach URL: ". `retryable` is false when trying again cannot help (a malformed URL or
// proxy setting, an unreadable --ca-file).
struct Failure {
  std::string reason;
  bool retryable = true;
};

struct Header {
  std::string name;
  std::string value;
};

// Return the value of the first header named `name` (in any case) in `headers`, or nullopt.
inline std::optional<std::string> find_header(const std::vector<Header>& headers,
                                              std::string_view name) {
  const auto same = [name](const Header& header) {
    return std::equal(header.name.begin(), header.name.end(), name.begin(), name.end(),
                      [](unsigned char a, unsigned char b) {
                        return std::tolower(a) == std::tolower(b);
                      });
  };
  const auto found = std::find_if(headers.begin(), headers.end(), same);
  return found == headers.end() ? std::nullopt : std::optional<std::string>(found->value);
}

// ---- HTTP ----------------------------------------------------------------------------------------

// What an HTTP client is opened with: one base URL, whose connection it keeps alive.
struct HttpSettings {
  std::string base_url;                      // http(s)://HOST[:PORT][/PREFIX] (cli/net/url.hpp)
  std::chrono::milliseconds timeout{30'000}; // each of: connecting, a write, a read's wait
  std::optional<std::string> ca_file;        // PEM bundle to trust; else the system's
  ProxyEnvironment proxies;                  // as read from the environment (cli/net/proxy.hpp)
};

struct HttpRequest {
  std::string method = "GET";
  std::string target = "/";    // path and query, after the base URL's prefix
  std::vector<Header> headers; // besides Host, User-Agent, Content-Length and Accept-Encoding
  std::string body;            // sent with a Content-Length when not empty
  bool accept_gzip = true;     // send Accept-Encoding: gzip (D17); a gzip body is inflated
};

struct HttpResponse {
  int status = 0;
  std::vector<Header> headers; // as received (Content-Encoding included)
  std::string body;            // inflated when it came gzip-compressed; empty for 304 and HEAD
};

using HttpOutcome = std::variant<HttpResponse, Failure>;

// An open client: its settings, the route (direct or through a proxy), and one kept-alive
// connection. Defined in the module; used by one thread at a time.
struct HttpSession;

// ---- TCP -----------------------------------------------------------------------------------------

// A connected TCP stream (a quote server's binary protocol). Defined in the module.
struct TcpStream;

// ---- serve ---------------------------------------------------------------------------------------

// What `serve` needs once its settings are resolved and checked: the module opens the stores
// (before it prints "listening on"), builds the API's services and runs the server.
struct ServeSettings {
  std::string data_locator;                 // a file path or a postgresql:// URI
  std::string keys_locator;
  std::size_t cache_budget_bytes = 256u << 20; // whole histories kept in memory
  std::optional<auth::PlanRates> rate_limit;   // requests a second per plan; nullopt: off
  server::ServerOptions server;
};

// ---- The table -----------------------------------------------------------------------------------

struct Module {
  // Open a client for `settings` (nothing is connected yet); a Failure when the base URL, a
  // proxy or the CA file is unusable. Close it with http_close.
  std::variant<HttpSession*, Failure> (*http_open)(const HttpSettings& settings) noexcept;
  // Send `request` on the session's connection (opened, or opened again, as needed: a kept-alive
  // connection the server closed is retried once for GET and HEAD) and read the response.
  HttpOutcome (*http_exchange)(HttpSession& session, const HttpRequest& request) noexcept;
  void (*http_close)(HttpSession* session) noexcept;

  // Connect to `host`:`port` within `timeout`. Close it with tcp_close.
  std::variant<TcpStream*, Failure> (*tcp_connect)(const std::string& host,
                                                   unsigned short port,
                                                   std::chrono::milliseconds timeout) noexcept;
  // Write all of `bytes` within `timeout`.
  std::optional<Failure> (*tcp_write)(TcpStream& stream,
                                      std::span<const std::byte> bytes,
                                      std::chrono::milliseconds timeout) noexcept;
  // Read exactly `into.size()` bytes within `timeout`; a Failure when the peer closes first.
  std::optional<Failure> (*tcp_read)(TcpStream& stream,
                                     std::span<std::byte> into,
                                     std::chrono::milliseconds timeout) noexcept;
  void (*tcp_close)(TcpStream* stream) noexcept;
  // Return `body` inflated from zlib's format (a TDX reply with flag 0x1c), or nullopt when it is
  // not that, is cut short, or inflates to more than `limit` bytes.
  std::optional<std::string> (*zlib_inflate)(std::string_view body, std::size_t limit) noexcept;

  // Run `serve` as `settings` say: open the stores, print "listening on URL" once bound, serve
  // until SIGINT or SIGTERM has drained the server; return the exit status, having printed
  // "ashare: error: ..." on failure (exit 3 for a database server that cannot be reached, as
  // main.cpp reports it; 1 otherwise).
  int (*serve)(const ServeSettings& settings) noexcept;
};

// Return the table. In `ashare-net` it is linked in (cli/net/entry.cpp). In `ashare` the first call
// hands the command over to `ashare-net` (cli/net/hand_over.hpp) and does not return: the one
// command that reaches it there is a remote-mode query that the cache could not answer, before it
// has printed anything. Throws std::runtime_error when `ashare-net` cannot be run.
const Module& module();

} // namespace ashare::cli::net
