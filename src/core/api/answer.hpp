// The answer of the API, typed, whichever door a request comes in by: `ashare serve` (api/dispatch,
// after the route, the key and the request rate), the command line in local mode, and remote mode
// over its cache (remote/cached_remote). D6's order after authentication lives here alone: the
// parse (400), D1's single unknown symbol (400), the plan (403) and what it implies where the
// request is silent (the default limit, the history clip); then the window or the indicator,
// meta.source and next_url. What an answer reads comes from a DataView (api/data_view).
#pragma once

#include "core/api/caller.hpp"
#include "core/api/json.hpp"
#include "core/api/data_view.hpp"
#include "core/api/members_json.hpp"
#include "core/error.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

namespace ashare::api {

// The answer to a health check: the dataset the data comes from (D8's as_of).
struct HealthResponse {
  store::DatasetInfo dataset;
};

// What a request is answered with: its typed response, the API's error, or why it cannot be
// answered here (Unanswered: wait on the store, or forward to the remote).
using Answer =
  std::variant<HealthResponse, BarsResponse, IndicatorResponse, MembersResponse, Error, Unanswered>;

// A request that passed the checks after authentication: what answer_admitted() reads.
struct Admitted {
  TypedRequest request; // its limit (and an indicator's history clip) set under the caller's plan
  std::shared_ptr<const query::Catalog> catalog; // what the checks read
};

// Check `parsed` (the request as parsed, or its parse error) of `caller` against what `view`
// holds, in D6's order: the parse (400), D1's single unknown symbol (400), the plan (403).
// Unanswered when `view` cannot give the catalog here; the Error of its refusal (remote mode:
// the remote's). `parsed` is moved from only when admitted: a request left Unanswered is
// admitted again later (api/dispatch, on a worker).
std::variant<Admitted, Error, Unanswered>
admit(Result<TypedRequest>&& parsed, const Caller& caller, DataView& view);

// Answer `admitted` from `view`: one item per symbol (D1: an unknown one an item error), each
// with its next_url (D8, D9), and meta.source of the symbols served (D8). The response carries
// `request_id`. Unanswered when `view` cannot give an item here.
Answer answer_admitted(const Admitted& admitted, DataView& view, const std::string& request_id);

// Answer `parsed` for `caller` from `view`: admit(), then answer_admitted(). What the command
// line (local and remote mode) calls; the server calls the two steps, tagging in between (D17).
Answer answer(Result<TypedRequest> parsed,
              const Caller& caller,
              DataView& view,
              const std::string& request_id);

// D7: what `admitted` costs: one credit per symbol its catalog knows (an unknown item is free);
// D20: one for the members of an index (its 404 is free, as every error).
std::int64_t credit_cost(const Admitted& admitted);

} // namespace ashare::api
