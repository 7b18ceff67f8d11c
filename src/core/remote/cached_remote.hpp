// Remote mode's answers: a request of the API answered by api::answer over the cache store, as the
// remote itself answers it. The cache is an api::DataView that first fetches what a request reads
// and the cache lacks: for bars only the date ranges it does not hold (raw, adjusted=false), with
// adjusted prices rendered locally from the symbol's anchor factor (D8), so the answer equals the
// remote's own; for indicators the whole history, which it must hold already (else the request is
// forwarded). /healthz is answered from the remote's recorded as_of, which is asked again at most
// once after each session close (remote/freshness), or at once with `refresh`. What the cache
// cannot answer goes to the remote as it is, and its reply is read back into the typed answer.
#pragma once

#include "core/api/answer.hpp"
#include "core/api/typed_request.hpp"
#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"
#include "core/remote/cache_filler.hpp"
#include "core/remote/calls.hpp"
#include "core/store/cache_store.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace ashare::remote {

struct RemoteSettings {
  std::string base_url;               // the remote, as the cache keys it
  auth::Plan plan = auth::Plan::free; // the remote key's plan: its defaults and history reach (D6)
  bool offline = false;               // never use the remote; OfflineMiss when the cache lacks
  bool refresh = false;               // ask the remote's as_of now and refetch what changed
  std::int64_t now_ms = 0;            // the current time, Unix ms
};

class CachedRemote {
public:
  // Answer from `cache`, fetching through `remote` what it lacks, as `settings` say; request ids
  // come from `random`.
  CachedRemote(http::Gateway& remote,
               store::CacheStore& cache,
               RemoteSettings settings,
               auth::RandomSource& random);
  ~CachedRemote();
  CachedRemote(const CachedRemote&) = delete; // its view refers to its settings
  CachedRemote& operator=(const CachedRemote&) = delete;

  // Return the answer of `request` as the remote gives it to a key of the settings' plan (whose
  // refusals are the remote's: D6). Throws OfflineMiss when offline and the cache cannot answer,
  // Unreachable when the remote cannot be reached, UnexpectedReply when it answers what no
  // server of the API sends.
  api::Answer answer(const api::TypedRequest& request);

private:
  class CacheView;

  http::Gateway& m_remote;
  store::CacheStore& m_cache;
  RemoteSettings m_settings;
  auth::RandomSource& m_random;
  std::unique_ptr<CacheView> m_view;
};

} // namespace ashare::remote
