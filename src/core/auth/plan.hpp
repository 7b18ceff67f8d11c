// The plans of D6 as a table: maximum `limit`, maximum symbols per request and reachable history.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace ashare::auth {

enum class Plan { free, basic, pro };

struct PlanLimits {
  Plan plan;
  std::string_view name;            // "free", "basic", "pro"
  int max_limit;                    // largest `limit` per request
  int max_symbols;                  // most symbols per request
  std::optional<int> history_years; // history reachable back from as_of; nullopt: all
};

// Return the table row of `plan`.
const PlanLimits& plan_limits(Plan plan);

// Return the whole table, in enumerator order.
std::span<const PlanLimits> plan_table();

// Return the largest `limit` every plan allows (D6): the page size of a client that pages
// whatever its key's plan.
int limit_every_plan_allows();

// Parse a plan name in any letter case; INVALID_PARAMETER naming `text` otherwise.
Result<Plan> parse_plan(std::string_view text);

// Return the earliest date `plan` may reach when the data is current to `as_of` (D6: same month
// and day, 29 February falls back to 28 February); nullopt when the plan reaches all history.
std::optional<domain::Date> earliest_reachable(Plan plan, domain::Date as_of);

} // namespace ashare::auth
