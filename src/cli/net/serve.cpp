#include "cli/net/serve.hpp"

#include "server/server.hpp"

#include "cli/output/report.hpp"
#include "core/api/services.hpp"

#include <iostream>
#include <optional>

namespace ashare::cli::net {

int serve(const ServeSettings& settings) {
  api::Services services(settings.data_locator, settings.keys_locator);
  services.histories.set_budget(settings.cache_budget_bytes);
  if (settings.rate_limit) {
    services.rate_limiter.enable(*settings.rate_limit);
  }
  // Open both stores now, so that a bad path fails before "listening" is printed.
  services.bars.acquire();
  services.keys.acquire();
  services.watch_changes();

  const auto& options = settings.server;
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
