// GET /v1/indicators/{ema,rsi,sma} (SPEC sections 2-4, D9 with D1, D4-D7): parameter validation
// in the documented order, plan checks, the query and its response.
#pragma once

#include "core/api/bars_cache.hpp"
#include "core/api/caller.hpp"
#include "core/api/endpoint.hpp"
#include "core/api/query_params.hpp"
#include "core/api/store_view.hpp"
#include "core/query/catalog.hpp"
#include "core/query/indicator_query.hpp"
#include "core/store/bar_store.hpp"

#include <optional>
#include <string>

namespace ashare::api {

// A validated indicator request; `limit` is nullopt when omitted (then 10, D4).
struct IndicatorRequest {
  query::IndicatorQuery query;
  std::optional<std::int64_t> limit;
  bool expand_underlying = false;
  // The explicit lower bounds (`timestamp`, `timestamp.gte`, `timestamp.gt`) with their names,
  // checked against the plan's history (D6).
  std::vector<std::pair<std::string, std::int64_t>> lower_bounds;
};

// Return the default window of `indicator` (SPEC: EMA 50, RSI 14, SMA 50).
int default_window(query::Indicator indicator);

// Return the path name of `indicator` ("ema", "rsi", "sma").
std::string_view indicator_name(query::Indicator indicator);

// Parse `text` of time parameter `name`: a date YYYY-MM-DD (its t, D2) or Unix milliseconds.
Result<std::int64_t> parse_time_param(std::string_view name, std::string_view text);

// Validate `params` without touching the store. Checks, in order: `symbol`, `timespan`,
// `adjusted`, `window`, `series_type`, `expand_underlying`, `order`, `limit`, `timestamp`,
// `timestamp.gte`, `timestamp.gt`, `timestamp.lte`, `timestamp.lt`.
Result<IndicatorRequest> parse_indicator_request(query::Indicator indicator,
                                                 const QueryParams& params);

// Check `request` against the plan of `caller` (D6) when the data is current to `as_of`: symbol
// count, `limit`, then explicit lower bounds (PLAN_LIMIT); with no lower bound, set the clip.
Status check_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of);

// Validate, check and run the request; the body renders with `request_id`. Reads the catalog and
// histories through `view`: deferred when it cannot without waiting.
Result<Prepared> prepare_indicator(query::Indicator indicator,
                                   const QueryParams& params,
                                   const Caller& caller,
                                   StoreView& view,
                                   const std::string& request_id);

} // namespace ashare::api
