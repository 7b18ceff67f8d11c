// Remote mode's answers: an API request answered from the cache store as the remote itself would
// answer it. Bars requests fetch from the remote only the date ranges the cache lacks (raw,
// adjusted=false) and render adjusted prices locally with the symbol's anchor factor (D8), so the
// answer equals the remote's own. Indicator requests are computed from the cache when it holds the
// symbols' whole history, else forwarded. /healthz is answered from the remote's recorded as_of,
// which is asked again at most once after each session close (remote/freshness), or at once with
// `refresh`. Everything else is forwarded.
#pragma once

#include "core/api/bars_request.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/json.hpp"
#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"
#include "core/remote/cache_filler.hpp"
#include "core/remote/upstream.hpp"
#include "core/store/cache_store.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace ashare::remote {

struct RemoteSettings {
  std::string base_url;               // the remote, as the cache keys it
  auth::Plan plan = auth::Plan::free; // the remote key's plan: its defaults and history reach (D6)
  bool offline = false;               // never use the upstream; OfflineMiss when the cache lacks
  bool refresh = false;               // ask the remote's as_of now and refetch what changed
  std::int64_t now_ms = 0;            // the current time, Unix ms
};

class CachedRemote {
public:
  // Answer from `cache`, fetching through `upstream` what it lacks, as `settings` say; request ids
  // come from `random`.
  CachedRemote(Upstream& upstream,
               store::CacheStore& cache,
               RemoteSettings settings,
               auth::RandomSource& random);

  // Answer GET `target` (path and query) as the remote would. Throws OfflineMiss when offline and
  // the cache cannot answer, UpstreamFailure when the remote cannot be reached.
  Reply get(const std::string& target);

  // Answer `request` as get(request.to_target()) would, but a 200 answered from the cache as the
  // typed response (item errors set, api::set_item_errors), without writing its body; anything
  // else (an error, the remote's own body) as the Reply get() gives.
  std::variant<api::BarsResponse, Reply> get_bars(api::BarsRequest request);

private:
  void require_online(const std::string& lacks) const;
  Reply forward(const std::string& target, const std::string& lacks);
  Reply refuse(const std::string& target, const Error& error);
  bool refreshing() const;
  std::optional<domain::Date> current_as_of();
  std::optional<double> current_anchor(const std::string& symbol, domain::Date as_of);
  Refusal fill(const std::string& symbol, DateRange window, domain::Date as_of, bool adjusted);
  Reply answer_health(const std::string& target);
  std::variant<api::BarsResponse, Reply> answer_bars(api::BarsRequest request,
                                                    const std::string& target);
  Reply answer_indicator(api::IndicatorRequest request, const std::string& target);
  store::DatasetInfo dataset(domain::Date as_of, std::span<const std::string> served);

  Upstream& m_upstream;
  store::CacheStore& m_cache;
  RemoteSettings m_settings;
  auth::RandomSource& m_random;
  CacheFiller m_filler;
  FetchStats m_stats;
};

} // namespace ashare::remote
