// The core's HTTP gateway (core/http/gateway.hpp) over the network module's client: one base URL
// whose connection it keeps alive, proxies from the environment, TLS, a timeout on each step, and
// headers of its own on every call. The one adapter that remote mode (cli/remote), Tushare's client
// and SZSE's calendar (cli/fetch/providers) send through, so that src/core never sees HTTP.
#pragma once

#include "cli/net/client.hpp"
#include "core/http/gateway.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace ashare::cli::net {

struct GatewaySettings {
  std::string base_url;                     // http(s)://HOST[:PORT][/PREFIX]
  std::chrono::milliseconds timeout;        // each of: connecting, a write, a read's wait
  std::optional<std::string> ca_file = {};  // PEM bundle to trust; else the system's
  std::vector<http::Header> headers = {};   // sent with every call (remote mode's API key)
  bool accept_gzip = true;                  // ask for gzip bodies (D17), inflated on arrival
};

class HttpGateway final : public http::Gateway {
public:
  // Send to `settings.base_url`, proxied as the environment says (cli/net/proxy.hpp).
  explicit HttpGateway(const GatewaySettings& settings);

  // Return the reply (its ETag too), or the failure in words that start with the base URL
  // ("http://host: connection refused"). Throws std::runtime_error only when `ashare-net`
  // cannot be run (cli/net/hand_over.hpp).
  http::Outcome send(const http::Call& call) override;

private:
  HttpClient m_client;
  std::vector<http::Header> m_headers;
  bool m_accept_gzip;
};

} // namespace ashare::cli::net
