// Checks and the price shared by the data endpoints: an unknown single symbol (D1), the plan's
// symbol and `limit` maxima (D6), and what a request costs (D7).
#pragma once

#include "core/auth/plan.hpp"
#include "core/domain/symbol.hpp"
#include "core/error.hpp"
#include "core/query/catalog.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ashare::api {

// D1: the error of a well-formed symbol the store does not know (400 when it is the only one, an
// item's `error` among several).
Error unknown_symbol(const std::string& symbol);

// D1: a well-formed symbol the store does not know is INVALID_SYMBOL when it is the only one
// (in a multi-symbol request it becomes a per-item error instead).
Status check_single_symbol_known(const std::vector<domain::Symbol>& symbols,
                                 const query::Catalog& catalog);

// D19: INVALID_PARAMETER when `symbols` names both codes of one alias pair of `catalog` (either
// answers the one series).
Status check_no_alias_pair(const std::vector<domain::Symbol>& symbols, const query::Catalog& catalog);

// D6: PLAN_LIMIT when `symbol_count` or an explicit `limit` is above the maxima of `plan`.
Status check_plan_maxima(auth::Plan plan, std::size_t symbol_count, std::optional<std::int64_t> limit);

// D7: one credit per symbol of `symbols` that `catalog` knows (an unknown item is free).
std::int64_t credit_cost(const std::vector<domain::Symbol>& symbols, const query::Catalog& catalog);

// Return " on the NAME plan", for PLAN_LIMIT messages.
std::string on_plan(auth::Plan plan);

} // namespace ashare::api
