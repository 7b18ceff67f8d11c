// GET /v1/indicators/{ema,rsi,sma} (SPEC sections 2-4, D9 with D1, D4-D7): parameter validation
// in the documented order, plan checks, the query and its response.
#pragma once

#include "core/api/history_cache.hpp"
#include "core/api/caller.hpp"
#include "core/api/endpoint.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/query_params.hpp"
#include "core/api/store_view.hpp"
#include "core/query/catalog.hpp"
#include "core/query/indicator_query.hpp"
#include "core/store/bar_store.hpp"

#include <optional>
#include <string>

namespace ashare::api {

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
