#include "core/api/request_checks.hpp"

namespace ashare::api {

Error unknown_symbol(const std::string& symbol) {
  return make_error(ErrorCode::invalid_symbol, "unknown symbol \"" + symbol + "\"");
}

Status check_single_symbol_known(const std::vector<domain::Symbol>& symbols,
                                 const query::Catalog& catalog) {
  if (symbols.size() == 1 && catalog.find(symbols[0].str()) == nullptr) {
    return unknown_symbol(symbols[0].str());
  }
  return Ok{};
}

Status check_no_alias_pair(const std::vector<domain::Symbol>& symbols, const query::Catalog& catalog) {
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const auto partner = catalog.aliases.partner(symbols[i].str());
    if (!partner) {
      continue;
    }
    for (std::size_t j = i + 1; j < symbols.size(); ++j) {
      if (symbols[j].str() == *partner) {
        return make_error(ErrorCode::invalid_parameter,
                          "symbol: " + symbols[i].str() + " and " + *partner
                            + " are one series (the code changed): name one of them");
      }
    }
  }
  return Ok{};
}

std::int64_t credit_cost(const std::vector<domain::Symbol>& symbols, const query::Catalog& catalog) {
  std::int64_t cost = 0;
  for (const auto& symbol : symbols) {
    cost += catalog.find(symbol.str()) != nullptr ? 1 : 0;
  }
  return cost;
}

std::string on_plan(auth::Plan plan) {
  return " on the " + std::string(auth::plan_limits(plan).name) + " plan";
}

Status check_plan_maxima(auth::Plan plan, std::size_t symbol_count, std::optional<std::int64_t> limit) {
  const auto& limits = auth::plan_limits(plan);
  if (symbol_count > static_cast<std::size_t>(limits.max_symbols)) {
    return make_error(ErrorCode::plan_limit,
                      "too many symbols: " + std::to_string(symbol_count) + " requested, at most "
                        + std::to_string(limits.max_symbols) + on_plan(plan));
  }
  if (limit && *limit > limits.max_limit) {
    return make_error(ErrorCode::plan_limit,
                      "limit " + std::to_string(*limit) + " is above the maximum of "
                        + std::to_string(limits.max_limit) + on_plan(plan));
  }
  return Ok{};
}

} // namespace ashare::api
