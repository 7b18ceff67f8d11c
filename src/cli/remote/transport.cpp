#include "cli/remote/transport.hpp"

#include "cli/net/module.hpp"

namespace ashare::cli {
namespace {

// Remote mode's HTTP(S) client, from the network module, loaded by the first request that
// reaches the network: an answer from the cache never pays for it (P6).
class HttpTransport final : public Transport {
public:
  HttpTransport(const Config& config, const RemoteOptions& options)
    : m_config(config), m_options(options) {}

  Reply get(const std::string& target) override {
    if (!m_client) {
      m_client = net::module().open_http_transport(m_config, m_options);
    }
    return m_client->get(target);
  }

  Reply get_if_none_match(const std::string& target, const std::string& etag) override {
    if (!m_client) {
      m_client = net::module().open_http_transport(m_config, m_options);
    }
    return m_client->get_if_none_match(target, etag);
  }

  std::string describe() const override { return *m_config.base_url; }

private:
  Config m_config;
  RemoteOptions m_options;
  std::unique_ptr<Transport> m_client;
};

} // namespace

std::unique_ptr<Transport> open_remote_transport(const Config& config,
                                                 const RemoteOptions& options) {
  return std::make_unique<HttpTransport>(config, options);
}

} // namespace ashare::cli
