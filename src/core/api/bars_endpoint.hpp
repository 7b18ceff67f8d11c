// GET /v1/ohlc/range/{multiplier}/{timespan}/{from}/{to} (SPEC "Daily bars", D1-D8): parameter
// validation in the documented order, plan checks, the query and its response.
#pragma once

#include "core/api/history_cache.hpp"
#include "core/api/bars_request.hpp"
#include "core/api/caller.hpp"
#include "core/api/endpoint.hpp"
#include "core/api/json.hpp"
#include "core/api/query_params.hpp"
#include "core/api/store_view.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"

#include <optional>
#include <string>

namespace ashare::api {

// Return the response to `request` with `items` (one per symbol, in order) and their next_urls,
// as the server and the remote-mode cache both render it.
BarsResponse make_bars_response(const BarsRequest& request,
                                const std::string& request_id,
                                const store::DatasetInfo& dataset,
                                std::vector<query::SymbolBars> items);

// Check `request` against the plan of `caller` (D6): symbol count, `limit`, then history reached
// by `from` when the data is current to `as_of`. PLAN_LIMIT on failure.
Status check_bars_plan(const BarsRequest& request,
                       const Caller& caller,
                       std::optional<domain::Date> as_of);

// Validate, check and run the request; the body renders with `request_id`. Reads the catalog and
// histories through `view`: deferred when it cannot without waiting.
Result<Prepared> prepare_bars(const BarsPath& path,
                              const QueryParams& params,
                              const Caller& caller,
                              StoreView& view,
                              const std::string& request_id);

} // namespace ashare::api
