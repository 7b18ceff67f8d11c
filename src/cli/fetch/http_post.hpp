// The HTTP side of a provider that speaks JSON over POST (Tushare Pro, D18): the core's
// fetch::Transport over the network module's client (proxies from the environment, TLS, a
// timeout on each step), so that src/core never sees HTTP.
#pragma once

#include "cli/net/client.hpp"
#include "core/fetch/transport.hpp"

#include <chrono>
#include <string>

namespace ashare::cli {

class HttpPostTransport final : public fetch::Transport {
public:
  // POST to `url` (http or https), waiting at most `timeout` for each step of an exchange.
  HttpPostTransport(const std::string& url, std::chrono::milliseconds timeout);

  fetch::Exchange post(const std::string& body) override;

private:
  net::HttpClient m_client;
};

} // namespace ashare::cli
