// The network side of the remote-mode cache, shared by remote::CachedRemote and `ashare sync`:
// learning the remote's as_of (from /healthz, which costs no credits), fetching raw bars
// (adjusted=false) into the cache store page by page along next_url, and learning a symbol's
// anchor factor (D8) from the remote's latest bar. It never decides what to fetch; its callers do.
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"
#include "core/remote/coverage.hpp"
#include "core/remote/calls.hpp"
#include "core/store/cache_store.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ashare::remote {

// The remote's reply to pass on unchanged when it refused a fetch (any status but 200); nullopt
// when the fetch succeeded.
using Refusal = std::optional<http::Reply>;

// What the fetches of one run did, for `sync`'s report.
struct FetchStats {
  std::int64_t requests = 0;        // bars requests sent (not /healthz)
  std::int64_t bars = 0;            // bars saved
  std::vector<std::string> unknown; // symbols the remote does not know (D1)
  std::set<std::string> anchored;   // symbols whose anchor was asked or learned
};

class CacheFiller {
public:
  // Fill `cache` for the remote `base_url` through `remote`. `plan` is the remote key's plan
  // (how far back an anchor request may reach); `now_ms` is the current time in Unix ms.
  CacheFiller(http::Gateway& remote,
              store::CacheStore& cache,
              std::string base_url,
              auth::Plan plan,
              std::int64_t now_ms);

  // Return the remote's as_of, asking /healthz first when a check is due (remote/freshness) or
  // `force` is set; asks at most once per run. nullopt when the remote has no data. Throws
  // Unreachable; a /healthz answer that is not 200 is an Error.
  Result<std::optional<domain::Date>> as_of(bool force);

  // Return the remote's as_of as the cache last recorded it, without asking.
  std::optional<domain::Date> recorded_as_of();

  // Fetch the raw bars of `symbols` over `range` in one request, then each symbol's next_url pages,
  // and save every page with the range it covers. Symbols the remote answers with an item error are
  // added to stats.unknown. Returns the remote's refusal of any request.
  Refusal fetch(const std::vector<std::string>& symbols, DateRange range, FetchStats& stats);

  // Learn the anchor factor of `symbol` at `as_of` from the remote's latest bar
  // (sort=desc&limit=1&adjusted=false), saving that bar too. No anchor is saved when the symbol has
  // no bar within the plan's reach. Returns the remote's refusal (400 INVALID_SYMBOL when unknown).
  Refusal fetch_anchor(const std::string& symbol, domain::Date as_of, FetchStats& stats);

  // Return the merged coverage of `symbol` (remote/coverage).
  std::vector<DateRange> coverage(const std::string& symbol);

  const std::string& base_url() const { return m_base_url; }
  store::CacheStore& cache() { return m_cache; }

private:
  // Send `target` and every next_url it leads to, saving each page; return any refusal.
  Refusal fetch_pages(std::string target, FetchStats& stats);

  http::Gateway& m_remote;
  store::CacheStore& m_cache;
  std::string m_base_url;
  auth::Plan m_plan;
  std::int64_t m_now_ms;
  bool m_checked = false; // /healthz was asked in this run
};

} // namespace ashare::remote
