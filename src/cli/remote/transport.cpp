#include "cli/remote/transport.hpp"

#include "cli/net/module.hpp"
#include "core/api/bars_endpoint.hpp"
#include "core/api/caller.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/api/services.hpp"
#include "core/auth/api_key.hpp"
#include "core/remote/cached_remote.hpp"
#include "core/store/cache_store.hpp"

namespace ashare::cli {
namespace {

// Local mode: the core answers in-process, as an unmetered Pro caller: no server, no key.
constexpr api::Caller k_local_caller{0, auth::Plan::pro, false};

class LocalTransport final : public Transport {
public:
  explicit LocalTransport(const Config& config)
    : m_path(config.db), m_services(config.db.string(), config.keys_db.string()) {
    // One process, one query: read its rows, not whole histories for a cache (issue 11).
    m_services.cache_histories = false;
  }

  Reply get(const std::string& target) override {
    api::Request request;
    request.method = "GET";
    const auto question = target.find('?');
    request.path = target.substr(0, question);
    if (question != std::string::npos) {
      request.query = target.substr(question + 1);
    }
    auto response = api::dispatch_trusted(request, m_services, k_local_caller);
    return Reply{response.status, std::move(response.body)};
  }

  BarsAnswer get_bars(const api::BarsRequest& request) override {
    auto answer = api::answer_bars_trusted(request, m_services, k_local_caller);
    if (!answer) {
      return answer.error();
    }
    return std::move(*answer);
  }

  std::string describe() const override { return m_path.string(); }

private:
  std::filesystem::path m_path;
  api::Services m_services;
};

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

auth::Plan plan_of(const Config& config) {
  if (!config.remote_plan) {
    throw std::invalid_argument(config.remote_plan.error().message);
  }
  return *config.remote_plan;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
           std::chrono::system_clock::now().time_since_epoch())
    .count();
}

// Remote mode: the remote through the cache; the core's remote::CachedRemote decides everything.
class CachingTransport final : public Transport {
public:
  CachingTransport(const Config& config, const RemoteOptions& options)
    : m_upstream(open_remote_transport(config, options)), m_cache(config.cache_db),
      m_remote(*m_upstream, m_cache,
               remote::RemoteSettings{*config.base_url, plan_of(config), options.offline,
                                      options.refresh, now_ms()},
               m_random) {}

  Reply get(const std::string& target) override { return m_remote.get(target); }

  BarsAnswer get_bars(const api::BarsRequest& request) override {
    auto answer = m_remote.get_bars(request);
    if (auto* response = std::get_if<api::BarsResponse>(&answer)) {
      return std::move(*response);
    }
    return std::get<Reply>(std::move(answer));
  }

  std::string describe() const override { return m_upstream->describe(); }

private:
  std::unique_ptr<Transport> m_upstream;
  store::CacheStore m_cache;
  auth::SystemRandom m_random;
  remote::CachedRemote m_remote;
};

} // namespace

std::unique_ptr<Transport> open_transport(const Config& config, const RemoteOptions& options) {
  if (config.base_url) {
    return std::make_unique<CachingTransport>(config, options);
  }
  return std::make_unique<LocalTransport>(config);
}

std::unique_ptr<Transport> open_remote_transport(const Config& config,
                                                 const RemoteOptions& options) {
  return std::make_unique<HttpTransport>(config, options);
}

} // namespace ashare::cli
