// GET /v1/indicators/{ema,rsi,sma,macd,bbands,atr,kdj} (SPEC sections 2-4, D9, D13 with D1, D4-D7)
// as api/answer reads them: the plan's check and defaults, and the answer from a DataView.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/json.hpp"
#include "core/api/data_view.hpp"
#include "core/api/typed_request.hpp"
#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/query/catalog.hpp"

#include <optional>
#include <string>
#include <variant>

namespace ashare::api {

// Check `request` against the plan of `caller` (D6) when the data is current to `as_of`: symbol
// count, `limit`, then explicit lower bounds (PLAN_LIMIT); with no lower bound, set the clip.
Status check_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of);

// Check `request` as check_indicator_plan() does (unless the caller's plan is the remote's to
// check), then set what the plan implies where the request is silent: `limit` (D4: 10).
Status apply_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of);

// Return the response to `request` (its plan applied) from `view`, over the symbols `catalog`
// knows: an item per symbol with its next_url (D9); or why `view` cannot give an item here.
std::variant<IndicatorResponse, Unanswered> answer_indicator(const IndicatorRequest& request,
                                                             const query::Catalog& catalog,
                                                             DataView& view,
                                                             const std::string& request_id);

} // namespace ashare::api
