#include "cli/remote/transport.hpp"

#include "cli/net/client.hpp"
#include "cli/net/proxy.hpp"
#include "core/api/bars_endpoint.hpp"
#include "core/api/caller.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/api/services.hpp"
#include "core/auth/api_key.hpp"
#include "core/remote/cached_remote.hpp"
#include "core/store/cache_store.hpp"

#include <thread>

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

// Remote mode's HTTP(S) client: requests of the v1 API over the network module's client, loaded
// by the first request that reaches the network (an answer from the cache never pays for it: P6),
// with the API key, gzip (D17), and retries with a doubling backoff on connection errors and 5xx.
class HttpTransport final : public Transport {
public:
  HttpTransport(const Config& config, const RemoteOptions& options)
    : m_base_url(*config.base_url), m_api_key(config.api_key), m_options(options),
      m_client(net::HttpSettings{*config.base_url, options.timeout, options.ca_file,
                                 net::read_proxy_environment(process_environment())}) {}

  Reply get(const std::string& target) override { return send(target, {}); }

  Reply get_if_none_match(const std::string& target, const std::string& etag) override {
    return send(target, etag);
  }

  std::string describe() const override { return m_base_url; }

private:
  // GET `target`, with If-None-Match `etag` when one is given (D17), retrying as configured.
  Reply send(const std::string& target, const std::string& etag) {
    net::HttpRequest request;
    request.target = target;
    if (m_api_key) {
      request.headers.push_back({"Authorization", "Bearer " + *m_api_key});
    }
    if (!etag.empty()) {
      request.headers.push_back({"If-None-Match", etag});
    }
    auto delay = m_options.backoff;
    for (int attempt = 0;; ++attempt) {
      auto outcome = m_client.exchange(request);
      auto* response = std::get_if<net::HttpResponse>(&outcome);
      if (response != nullptr && response->status < 500) {
        auto etag_sent = net::find_header(response->headers, "ETag").value_or("");
        return Reply{response->status, std::move(response->body), std::move(etag_sent)};
      }
      const auto* failure = std::get_if<net::Failure>(&outcome);
      if (attempt >= m_options.retries || (failure != nullptr && !failure->retryable)) {
        throw NetworkError(failure != nullptr ? unreachable(*failure)
                                              : kept_failing(*response, attempt + 1));
      }
      std::this_thread::sleep_for(delay);
      delay *= 2;
    }
  }

  std::string unreachable(const net::Failure& failure) const {
    return "cannot reach " + m_base_url + ": " + failure.reason;
  }

  // A server that keeps answering 5xx is as unusable as an unreachable one (exit 3).
  std::string kept_failing(const net::HttpResponse& response, int attempts) const {
    std::string detail = "HTTP " + std::to_string(response.status);
    if (const auto error = api::error_from_json(response.body)) {
      detail += " " + std::string(error_info(error->code).wire_name) + ": " + error->message;
    }
    return m_base_url + " kept failing after " + std::to_string(attempts) + " attempts: " + detail;
  }

  std::string m_base_url;
  std::optional<std::string> m_api_key;
  RemoteOptions m_options;
  net::HttpClient m_client;
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
