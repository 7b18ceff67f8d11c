// `ashare serve`'s HTTP layer (issue 9): one acceptor, one io_context per network thread, a small
// worker pool for requests the core defers, the access log, and the signals: SIGINT or SIGTERM
// drains (/healthz answers 503, requests in flight finish within the drain timeout, then it
// stops), SIGHUP reloads the TLS certificate and key for new connections.
#pragma once

#include "core/api/services.hpp"
#include "server/options.hpp"

#include <memory>
#include <string>

namespace ashare::server {

class Server {
public:
  // Serve `services` as `options` say; the TLS files are loaded now (throws std::runtime_error
  // naming them when they cannot be).
  Server(api::Services& services, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Bind and listen; return the port (the one chosen when options.port is 0). Throws
  // std::runtime_error when the address cannot be bound (a port in use stays an error: no
  // SO_REUSEPORT).
  unsigned short listen();

  // Return notes for the operator about the settings (e.g. a connection cap lowered to fit the
  // open-file limit); empty when there is nothing to say.
  const std::vector<std::string>& notes() const;

  // Serve until a signal stops the server, then drain and return.
  void run();

private:
  struct State;
  std::unique_ptr<State> m_state;
};

} // namespace ashare::server
