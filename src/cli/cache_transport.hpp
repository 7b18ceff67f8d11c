// Remote mode's transport: bars requests are answered from the cache store, fetching from the
// remote only the date ranges the cache lacks (raw, adjusted=false) and rendering adjusted prices
// locally with the symbol's anchor factor (D8), so the answer equals the remote's own. Indicator
// requests are computed from the cache when it holds the symbols' whole history, else forwarded.
// /healthz is answered from the remote's recorded as_of, which is asked again at most once after
// each session close (query/freshness), or at once with --refresh. Everything else is forwarded.
#pragma once

#include "cli/config.hpp"
#include "cli/transport.hpp"

#include <cstdint>
#include <memory>

namespace ashare::cli {

// Return the caching transport of `config` (base_url, cache_db, plan) over `remote`, at `now_ms`
// (Unix ms). With options.offline it never uses `remote` and throws OfflineMiss when the cache
// cannot answer. Throws std::invalid_argument when config.plan is not a plan name.
std::unique_ptr<Transport> make_caching_transport(const Config& config,
                                                  const RemoteOptions& options,
                                                  std::unique_ptr<Transport> remote,
                                                  std::int64_t now_ms);

} // namespace ashare::cli
