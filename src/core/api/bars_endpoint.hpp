// GET /v1/ohlc/range/{multiplier}/{timespan}/{from}/{to} (SPEC "Daily bars", D1-D8) as a row of
// the dispatch pipeline: the parse (api/bars_request), the plan check and the answer.
#pragma once

#include "core/api/bars_request.hpp"
#include "core/api/caller.hpp"
#include "core/api/endpoint.hpp"
#include "core/api/json.hpp"
#include "core/api/services.hpp"
#include "core/store/bar_store.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>

namespace ashare::api {

// Parse a bars request from the path segments `captures` (multiplier, timespan, from, to) and
// `params` (parse_bars_request).
Result<std::unique_ptr<EndpointRequest>> parse_bars_endpoint(std::span<const std::string> captures,
                                                             const QueryParams& params);

// Answer `request` for `caller`, already trusted, as dispatch_trusted() answers its target, but as
// the typed response (`errors` filled as if parsed from the body) instead of the body: the local
// command line prints a table or CSV from it without writing and parsing JSON (issue 11, P2).
// Fails as that body would: D1's single unknown symbol, then the plan. Requires an unmetered
// `caller`.
Result<BarsResponse>
answer_bars_trusted(BarsRequest request, Services& services, const Caller& caller);

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

} // namespace ashare::api
