#include "core/auth/plan.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>

namespace ashare::auth {
namespace {

constexpr std::array k_plan_table{
  PlanLimits{Plan::free, "free", 500, 1, 2},
  PlanLimits{Plan::basic, "basic", 5000, 5, 5},
  PlanLimits{Plan::pro, "pro", 5000, 20, std::nullopt},
};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

} // namespace

const PlanLimits& plan_limits(Plan plan) {
  const auto index = static_cast<std::size_t>(plan);
  assert(index < k_plan_table.size() && k_plan_table[index].plan == plan);
  return k_plan_table[index];
}

std::span<const PlanLimits> plan_table() {
  return k_plan_table;
}

int limit_every_plan_allows() {
  int smallest = k_plan_table.front().max_limit;
  for (const auto& row : k_plan_table) {
    smallest = std::min(smallest, row.max_limit);
  }
  return smallest;
}

Result<Plan> parse_plan(std::string_view text) {
  for (const auto& row : k_plan_table) {
    if (equal_ignoring_case(row.name, text)) {
      return row.plan;
    }
  }
  return make_error(ErrorCode::invalid_parameter,
                    "invalid plan \"" + std::string(text) + "\": expected free, basic or pro");
}

std::optional<domain::Date> earliest_reachable(Plan plan, domain::Date as_of) {
  const auto years = plan_limits(plan).history_years;
  if (!years) {
    return std::nullopt;
  }
  return as_of.minus_years(*years);
}

} // namespace ashare::auth
