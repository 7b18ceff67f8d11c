// The network module, ashare-net.so: remote mode's HTTP(S) client and the server of `serve`, with
// the libraries only they need (OpenSSL's libssl, cpp-httplib, zlib, Boost.Asio). `ashare` loads
// it on first use: linked in, those libraries cost every command about 2 ms of process start,
// more than a local one-year query takes (issue 11, P2).
#pragma once

#include "server/options.hpp"

#include "cli/config.hpp"
#include "cli/remote/transport.hpp"
#include "core/auth/rate_limiter.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

namespace ashare::cli::net {

// What `serve` needs once its settings are resolved and checked: the module opens the stores
// (before it prints "listening on"), builds the API's services and runs the server.
struct ServeSettings {
  std::string data_locator; // a file path or a postgresql:// URI
  std::string keys_locator;
  std::size_t cache_budget_bytes = 256u << 20; // whole histories kept in memory
  std::optional<auth::PlanRates> rate_limit;   // requests a second per plan; nullopt: off
  server::ServerOptions server;
};

// Bumped whenever the table or a type above changes, so that a stale module is refused.
inline constexpr int k_module_abi = 2;

// What the module gives `ashare`: one function per use, and the version it was built as.
struct Module {
  const char* version; // ASHARE_VERSION of the module's build; `ashare` refuses another
  int abi;             // k_module_abi of the module's build
  std::unique_ptr<Transport> (*open_http_transport)(const Config& config,
                                                    const RemoteOptions& options);
  // Run `serve` as `settings` say: open the stores, print "listening on URL" once bound, serve
  // until SIGINT or SIGTERM has drained the server; return the exit status, having printed
  // "ashare: error: ..." on failure (exit 3 for a database server that cannot be reached, as
  // main.cpp reports it; 1 otherwise).
  int (*serve)(const ServeSettings& settings) noexcept;
};

// Return the module, loading it on the first call from beside the executable or from
// ../LIBDIR/ashare; throws std::runtime_error naming the paths tried and why when it cannot.
const Module& module();

// The module's own implementations: only ashare-net.so links them; `ashare` calls them through
// module().

// Return a transport straight to config.base_url (which must be set), without the cache; throws
// NetworkError only when used.
std::unique_ptr<Transport> open_http_transport(const Config& config, const RemoteOptions& options);

} // namespace ashare::cli::net
