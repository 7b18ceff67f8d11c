// What the pipeline of api::dispatch (the D6 order, in one function) asks of a data endpoint once
// it has parsed a request: the symbols it names (D1's single unknown symbol, D7's price), its plan
// check, and its answer. Everything else (route, key, the order of checks, credits) is the
// pipeline's, so an endpoint is a parse function and one class.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/store_view.hpp"
#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/error.hpp"
#include "core/query/catalog.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ashare::api {

// Renders a body; `credits_charged` is set when credits were charged (D7 meta.credits_charged).
using Render = std::function<std::string(std::optional<std::int64_t> credits_charged)>;

// A request of a data endpoint, parsed and valid.
class EndpointRequest {
public:
  virtual ~EndpointRequest() = default;

  // Return the symbols the request names, in order.
  virtual const std::vector<domain::Symbol>& symbols() const = 0;

  // Return the request in its canonical form (to_target()): what its ETag names (D17).
  virtual std::string canonical_target() const = 0;

  // Check the request against the plan of `caller` with data current to `as_of` (D6: PLAN_LIMIT
  // on failure), then apply what the plan implies where the request is silent (the default
  // `limit`, the history clip).
  virtual Status apply_plan(const Caller& caller, std::optional<domain::Date> as_of) = 0;

  // Return the body's renderer, reading the histories of `catalog`'s symbols through `view`;
  // nullopt when a history is not in memory and `view` may not load it.
  virtual std::optional<Render>
  answer(const query::Catalog& catalog, StoreView& view, const std::string& request_id) = 0;
};

} // namespace ashare::api
