#include "cli/remote/transport.hpp"

#include "core/api/caller.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/api/services.hpp"
#include "core/auth/api_key.hpp"
#include "core/remote/cached_remote.hpp"
#include "core/store/cache_store.hpp"

#include <httplib.h>
#include <thread>

namespace ashare::cli {
namespace {

// Local mode: the core answers in-process, as an unmetered Pro caller: no server, no key.
class LocalTransport final : public Transport {
public:
  explicit LocalTransport(const Config& config)
    : m_path(config.db), m_services(config.db, config.keys_db) {
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
    const api::Caller local{0, auth::Plan::pro, false};
    auto response = api::dispatch_trusted(request, m_services, local);
    return Reply{response.status, std::move(response.body)};
  }

  std::string describe() const override { return m_path.string(); }

private:
  std::filesystem::path m_path;
  api::Services m_services;
};

// Remote mode: any server implementing SPEC, over HTTP or HTTPS.
class RemoteTransport final : public Transport {
public:
  RemoteTransport(const Config& config, const RemoteOptions& options)
    : m_base_url(*config.base_url), m_options(options), m_client(trimmed(*config.base_url)) {
    m_client.set_connection_timeout(options.timeout);
    m_client.set_read_timeout(options.timeout);
    m_client.set_write_timeout(options.timeout);
    m_client.set_keep_alive(true);
    if (options.ca_file) {
      m_client.set_ca_cert_path(options.ca_file->c_str());
    }
    if (config.api_key) {
      m_client.set_bearer_token_auth(config.api_key->c_str());
    }
    m_prefix = path_prefix(m_base_url);
  }

  Reply get(const std::string& target) override {
    auto delay = m_options.backoff;
    for (int attempt = 0;; ++attempt) {
      auto result = m_client.Get(m_prefix + target);
      const bool retry_status = result && result->status >= 500;
      if (result && !retry_status) {
        return Reply{result->status, result->body};
      }
      if (attempt >= m_options.retries) {
        // A server that keeps answering 5xx is as unusable as an unreachable one (exit 3).
        if (result) {
          std::string detail = "HTTP " + std::to_string(result->status);
          if (const auto error = api::error_from_json(result->body)) {
            detail += " " + std::string(error_info(error->code).wire_name) + ": " + error->message;
          }
          throw NetworkError(m_base_url + " kept failing after " + std::to_string(attempt + 1)
                             + " attempts: " + detail);
        }
        throw NetworkError("cannot reach " + m_base_url + ": " + httplib::to_string(result.error()));
      }
      std::this_thread::sleep_for(delay);
      delay *= 2;
    }
  }

  std::string describe() const override { return m_base_url; }

private:
  // cpp-httplib takes scheme://host:port; a path after it is our prefix.
  static std::string trimmed(const std::string& url) {
    const auto scheme = url.find("://");
    const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    return slash == std::string::npos ? url : url.substr(0, slash);
  }
  static std::string path_prefix(const std::string& url) {
    const auto scheme = url.find("://");
    const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    std::string prefix = slash == std::string::npos ? "" : url.substr(slash);
    while (!prefix.empty() && prefix.back() == '/') {
      prefix.pop_back();
    }
    return prefix;
  }

  std::string m_base_url;
  RemoteOptions m_options;
  httplib::Client m_client;
  std::string m_prefix;
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
  return std::make_unique<RemoteTransport>(config, options);
}

} // namespace ashare::cli
