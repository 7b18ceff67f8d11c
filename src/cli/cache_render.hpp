// Answers rendered from the remote-mode cache exactly as a D8/D9-conformant remote renders them:
// the core's own query functions (sort, limit, forward adjustment, summary, next_url, indicators)
// over the cached raw bars, serialised by the core's JSON writers.
#pragma once

#include "core/api/bars_endpoint.hpp"
#include "core/api/indicator_endpoint.hpp"
#include "core/store/cache_store.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ashare::cli {

// What the rendering needs to know about the cached remote and each requested symbol.
struct CachedView {
  store::CacheStore& cache;
  std::string base_url;
  store::DatasetInfo dataset;                 // the remote's as_of and source, for meta (D8)
  std::vector<std::optional<double>> anchors; // per requested symbol; nullopt: unknown symbol (D1)
  std::string request_id;
};

// Return the bars response body of validated `request` (its limit resolved) from `view`.
std::string render_cached_bars(const api::BarsRequest& request, const CachedView& view);

// Return the indicator response body of validated, plan-checked `request` (its limit resolved)
// from `view`; every symbol is known and its whole history is cached.
std::string render_cached_indicators(const api::IndicatorRequest& request, const CachedView& view);

} // namespace ashare::cli
