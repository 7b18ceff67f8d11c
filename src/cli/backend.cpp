#include "cli/backend.hpp"

#include "cli/remote/remote_gateway.hpp"
#include "core/api/caller.hpp"
#include "core/api/services.hpp"
#include "core/api/store_view.hpp"
#include "core/auth/api_key.hpp"
#include "core/remote/cached_remote.hpp"
#include "core/store/cache_store.hpp"

#include <chrono>
#include <stdexcept>

namespace ashare::cli {
namespace {

// Local mode: the core answers in-process, as an unmetered Pro caller: no server, no key.
constexpr api::Caller k_local_caller{0, auth::Plan::pro, false};

class LocalBackend final : public Backend {
public:
  explicit LocalBackend(const Config& config)
    : m_path(config.db), m_services(config.db.string(), config.keys_db.string()) {
    // One process, one query: read its rows, not whole histories for a cache (issue 11).
    m_services.cache_histories = false;
  }

  api::Answer answer(const api::TypedRequest& request) override {
    api::StoreView view(m_services.bars, m_services.catalog, m_services.histories,
                        m_services.filler, m_services.cache_histories, api::Waiting::allowed,
                        api::StoreView::Clock::now());
    return api::answer(request, k_local_caller, view, auth::generate_uuid(m_services.random));
  }

  std::string describe() const override { return m_path.string(); }

private:
  std::filesystem::path m_path;
  api::Services m_services;
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
class CachedBackend final : public Backend {
public:
  CachedBackend(const Config& config, const RemoteOptions& options)
    : m_base_url(*config.base_url), m_gateway(open_remote_gateway(config, options)),
      m_cache(config.cache_db),
      m_remote(*m_gateway, m_cache,
               remote::RemoteSettings{*config.base_url, plan_of(config), options.offline,
                                      options.refresh, now_ms()},
               m_random) {}

  api::Answer answer(const api::TypedRequest& request) override { return m_remote.answer(request); }

  std::string describe() const override { return m_base_url; }

private:
  std::string m_base_url;
  std::unique_ptr<http::Gateway> m_gateway;
  store::CacheStore m_cache;
  auth::SystemRandom m_random;
  remote::CachedRemote m_remote;
};

} // namespace

std::unique_ptr<Backend> open_backend(const Config& config, const RemoteOptions& options) {
  if (config.base_url) {
    return std::make_unique<CachedBackend>(config, options);
  }
  return std::make_unique<LocalBackend>(config);
}

} // namespace ashare::cli
