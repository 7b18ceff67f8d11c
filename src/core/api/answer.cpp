#include "core/api/answer.hpp"

#include "core/api/bars_endpoint.hpp"
#include "core/api/indicator_endpoint.hpp"
#include "core/api/members_endpoint.hpp"
#include "core/api/request_checks.hpp"
#include "core/overloaded.hpp"

#include <utility>

namespace ashare::api {
namespace {

// D6: check `request` against the plan of `caller`, then set what the plan implies.
Status apply_plan(TypedRequest& request, const Caller& caller, std::optional<domain::Date> as_of) {
  return std::visit(
    Overloaded{[](HealthRequest&) -> Status { return Ok{}; },
               [&](BarsRequest& bars) { return apply_bars_plan(bars, caller, as_of); },
               [&](IndicatorRequest& values) { return apply_indicator_plan(values, caller, as_of); },
               [&](MembersRequest& members) { return apply_members_plan(members, caller, as_of); }},
    request);
}

// Return `answered` (a typed response, or why there is none) as an Answer.
template <class Response>
Answer answer_of(std::variant<Response, Unanswered> answered) {
  if (auto* unanswered = std::get_if<Unanswered>(&answered)) {
    return *unanswered;
  }
  return std::get<Response>(std::move(answered));
}

} // namespace

std::variant<Admitted, Error, Unanswered>
admit(Result<TypedRequest>&& parsed, const Caller& caller, DataView& view) {
  if (!parsed) {
    return parsed.error(); // 400
  }
  auto catalog = view.catalog(*parsed);
  if (auto* refused = std::get_if<Error>(&catalog)) {
    return *refused;
  }
  if (auto* unanswered = std::get_if<Unanswered>(&catalog)) {
    return *unanswered;
  }
  auto known = std::get<std::shared_ptr<const query::Catalog>>(std::move(catalog));
  // D1: an unknown symbol is a 400 when it is the only one (an item's error among several).
  if (auto status = check_single_symbol_known(symbols_of(*parsed), *known); !status) {
    return status.error();
  }
  if (auto status = check_no_alias_pair(symbols_of(*parsed), *known); !status) {
    return status.error(); // D19: 400
  }
  if (auto status = apply_plan(*parsed, caller, known->dataset.as_of); !status) {
    return status.error(); // 403
  }
  return Admitted{std::move(*parsed), std::move(known)};
}

Answer answer_admitted(const Admitted& admitted, DataView& view, const std::string& request_id) {
  const auto& catalog = *admitted.catalog;
  return std::visit(
    Overloaded{
      [&](const HealthRequest&) -> Answer { return HealthResponse{catalog.dataset}; },
      [&](const BarsRequest& bars) {
        return answer_of(answer_bars(bars, catalog, view, request_id));
      },
      [&](const IndicatorRequest& values) {
        return answer_of(answer_indicator(values, catalog, view, request_id));
      },
      [&](const MembersRequest& members) -> Answer {
        auto answered = answer_members(members, view, request_id);
        return std::visit([](auto& value) -> Answer { return std::move(value); }, answered);
      }},
    admitted.request);
}

Answer answer(Result<TypedRequest> parsed,
              const Caller& caller,
              DataView& view,
              const std::string& request_id) {
  auto admitted = admit(std::move(parsed), caller, view);
  if (auto* error = std::get_if<Error>(&admitted)) {
    return *error;
  }
  if (auto* unanswered = std::get_if<Unanswered>(&admitted)) {
    return *unanswered;
  }
  return answer_admitted(std::get<Admitted>(admitted), view, request_id);
}

std::int64_t credit_cost(const Admitted& admitted) {
  if (std::holds_alternative<MembersRequest>(admitted.request)) {
    return 1; // D20
  }
  return credit_cost(symbols_of(admitted.request), *admitted.catalog);
}

} // namespace ashare::api
