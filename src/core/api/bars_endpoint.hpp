// GET /v1/ohlc/range/{multiplier}/{timespan}/{from}/{to} (SPEC "Daily bars", D1-D8) as api/answer
// reads it: the plan's check and defaults, and the answer from a DataView.
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

// Check `request` against the plan of `caller` (D6): symbol count, `limit`, then history reached
// by `from` when the data is current to `as_of`. PLAN_LIMIT on failure.
Status check_bars_plan(const BarsRequest& request,
                       const Caller& caller,
                       std::optional<domain::Date> as_of);

// Check `request` as check_bars_plan() does (unless the caller's plan is the remote's to check),
// then set what the plan implies where the request is silent: `limit` (D4, D6).
Status apply_bars_plan(BarsRequest& request, const Caller& caller, std::optional<domain::Date> as_of);

// Return the response to `request` (its plan applied) from `view`, over the symbols `catalog`
// knows: an item per symbol with its next_url, meta.source of those served (D8); or why `view`
// cannot give an item here.
std::variant<BarsResponse, Unanswered> answer_bars(const BarsRequest& request,
                                                   const query::Catalog& catalog,
                                                   DataView& view,
                                                   const std::string& request_id);

} // namespace ashare::api
