// What `ashare sync` does, as rules over remote::CacheFiller: the window to sync (by default as far
// back as the remote key's plan reaches, D6, and never past as_of), the ranges each symbol lacks
// grouped so that symbols lacking the same range share requests, and the fetching of those groups
// in batches of the plan's symbol maximum, halved on 403 PLAN_LIMIT (D6), with unknown symbols
// (D1) reported rather than fatal.
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"
#include "core/remote/cache_filler.hpp"
#include "core/remote/coverage.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ashare::remote {

// Symbols missing the same range: what one request (split into batches) can fetch.
struct SyncGroup {
  DateRange range;
  std::vector<std::string> symbols;
};

// Return the window to sync: `from`, by default as far back as `plan` reaches from `as_of` (D6);
// `to`, by default as_of; never past as_of, which has no later bars. The range may be empty
// (first > last): nothing to sync.
DateRange sync_window(auth::Plan plan,
                      domain::Date as_of,
                      std::optional<domain::Date> from,
                      std::optional<domain::Date> to);

// Return the ranges each of `symbols` lacks within `window`, grouped by range (a first sync: one
// group; a repeated one: none); `cached` counts the symbols that lack nothing.
std::vector<SyncGroup> missing_work(CacheFiller& filler,
                                    const std::vector<std::string>& symbols,
                                    DateRange window,
                                    std::size_t& cached);

// Called after each batch with the number of symbols it fetched and the stats so far.
using SyncProgress = std::function<void(std::size_t symbols, const FetchStats& stats)>;

// Fetch every group in batches of at most the symbol maximum of `plan`, halving the batch on
// PLAN_LIMIT; a batch of one unknown symbol is added to stats.unknown. Return the remote's refusal
// that ends the sync, if any.
Refusal fetch_groups(CacheFiller& filler,
                     const std::vector<SyncGroup>& groups,
                     auth::Plan plan,
                     FetchStats& stats,
                     const SyncProgress& progress);

} // namespace ashare::remote
