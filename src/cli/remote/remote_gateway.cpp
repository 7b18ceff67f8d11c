#include "cli/remote/remote_gateway.hpp"

#include "cli/net/http_gateway.hpp"
#include "core/domain/clock.hpp"
#include "core/remote/calls.hpp"

namespace ashare::cli {
namespace {

std::vector<http::Header> key_header(const Config& config) {
  if (!config.api_key) {
    return {};
  }
  return {{"Authorization", "Bearer " + *config.api_key}};
}

// Requests of the v1 API with the key and gzip (D17), retried with a doubling backoff on
// connection errors and 5xx.
class RemoteGateway final : public http::Gateway {
public:
  RemoteGateway(const Config& config, const RemoteOptions& options)
      : m_network({*config.base_url, options.timeout, options.ca_file, key_header(config)}),
        m_retrying(m_network, m_clock,
                   remote::retry_policy(*config.base_url, options.retries, options.backoff)) {}

  http::Outcome send(const http::Call& call) override { return m_retrying.send(call); }

private:
  net::HttpGateway m_network;
  domain::SystemClock m_clock;
  http::RetryingGateway m_retrying;
};

} // namespace

std::unique_ptr<http::Gateway> open_remote_gateway(const Config& config,
                                                   const RemoteOptions& options) {
  return std::make_unique<RemoteGateway>(config, options);
}

} // namespace ashare::cli
