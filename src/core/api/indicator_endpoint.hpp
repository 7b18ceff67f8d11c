// GET /v1/indicators/{ema,rsi,sma} (SPEC sections 2-4, D9 with D1, D4-D7) as rows of the dispatch
// pipeline: the parse (api/indicator_request), the plan check and the answer.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/endpoint.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/json.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>

namespace ashare::api {

// Parse a request of the `indicator` endpoint from `params` (parse_indicator_request).
template <query::Indicator indicator>
Result<std::unique_ptr<EndpointRequest>> parse_indicator_endpoint(std::span<const std::string>,
                                                                  const QueryParams& params);

// Check `request` against the plan of `caller` (D6) when the data is current to `as_of`: symbol
// count, `limit`, then explicit lower bounds (PLAN_LIMIT); with no lower bound, set the clip.
Status check_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of);

// Return the response of `request` (its limit resolved) with `items`, one per symbol in order.
IndicatorResponse make_indicator_response(const IndicatorRequest& request,
                                          const std::string& request_id,
                                          std::vector<query::SymbolValues> items);

} // namespace ashare::api
