// `ashare serve` once its settings are resolved (part of the network module, cli/net/module.hpp):
// construct the server of src/server, bind, say where it listens, and run until drained.
#include "cli/net/module.hpp"
#include "cli/output/report.hpp"
#include "server/server.hpp"

#include <iostream>
#include <optional>

namespace ashare::cli::net {

int serve(api::Services& services, const server::ServerOptions& options) {
  std::optional<server::Server> server;
  try {
    server.emplace(services, options);
  } catch (const std::runtime_error& error) {
    return fail(error.what());
  }
  for (const auto& note : server->notes()) {
    warn(note);
  }
  unsigned short port = 0;
  try {
    port = server->listen();
  } catch (const std::runtime_error& error) {
    return fail("cannot listen on " + options.host + ":" + std::to_string(options.port) + ": "
                + error.what());
  }
  const bool ipv6 = options.host.find(':') != std::string::npos;
  std::cout << "listening on " << (options.tls ? "https://" : "http://")
            << (ipv6 ? "[" + options.host + "]" : options.host) << ":" << port << std::endl;
  server->run();
  return k_exit_ok;
}

} // namespace ashare::cli::net
