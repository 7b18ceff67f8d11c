// The network module, ashare-net.so: remote mode's HTTP(S) client and the server of `serve`, with
// the libraries only they need (OpenSSL's libssl, cpp-httplib, zlib, Boost.Asio). `ashare` loads
// it on first use: linked in, those libraries cost every command about 2 ms of process start,
// more than a local one-year query takes (issue 11, P2).
#pragma once

#include "server/options.hpp"

#include "cli/config.hpp"
#include "cli/remote/transport.hpp"
#include "core/api/services.hpp"

#include <memory>

namespace ashare::cli::net {

// What the module gives `ashare`: one function per use, and the version it was built as.
struct Module {
  const char* version; // ASHARE_VERSION of the module's build; `ashare` refuses another
  std::unique_ptr<Transport> (*open_http_transport)(const Config& config,
                                                    const RemoteOptions& options);
  int (*serve)(api::Services& services, const server::ServerOptions& options);
};

// Return the module, loading it on the first call from beside the executable or from
// ../LIBDIR/ashare; throws std::runtime_error naming the paths tried and why when it cannot.
const Module& module();

// The module's own implementations: only ashare-net.so links them; `ashare` calls them through
// module().

// Return a transport straight to config.base_url (which must be set), without the cache; throws
// NetworkError only when used.
std::unique_ptr<Transport> open_http_transport(const Config& config, const RemoteOptions& options);

// Serve `services` as `options` say: print "listening on URL" once bound, serve until SIGINT or
// SIGTERM has drained the server, and return the exit status (1 with a message when the TLS files
// cannot be loaded or the address cannot be bound).
int serve(api::Services& services, const server::ServerOptions& options);

} // namespace ashare::cli::net
