#include "core/api/indicator_endpoint.hpp"

#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"
#include "core/store/bar_store.hpp"

namespace ashare::api {

Status check_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of) {
  if (auto status = check_plan_maxima(caller.plan, request.query.symbols.size(), request.limit);
      !status) {
    return status;
  }
  const auto earliest = as_of ? auth::earliest_reachable(caller.plan, *as_of) : std::nullopt;
  if (!earliest) {
    return Ok{};
  }
  // D6: an explicit early lower bound is refused; without one, values are clipped silently.
  const auto lower_bounds = request.lower_bounds();
  for (const auto& [name, bound] : lower_bounds) {
    if (bound < earliest->t_ms()) {
      return make_error(ErrorCode::plan_limit, name + " reaches earlier than " + earliest->iso()
                                                   + ", the earliest date reachable"
                                                   + on_plan(caller.plan) + " (as_of "
                                                   + as_of->iso() + ")");
    }
  }
  if (lower_bounds.empty()) {
    request.query.filter.clip_gte = earliest->t_ms();
  }
  return Ok{};
}

Status apply_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of) {
  if (!caller.plan_checked_by_remote) {
    if (auto status = check_indicator_plan(request, caller, as_of); !status) {
      return status;
    }
  }
  request.query.limit = request.limit_or_default();
  return Ok{};
}

std::variant<IndicatorResponse, Unanswered> answer_indicator(const IndicatorRequest& request,
                                                             const query::Catalog& catalog,
                                                             DataView& view,
                                                             const std::string& request_id) {
  const auto& query = request.query;
  IndicatorResponse response;
  response.request_id = request_id;
  response.single = query.symbols.size() == 1;
  response.expand_underlying = request.expand_underlying;
  response.indicator = query.indicator;
  response.series_type = reads_series_type(query.indicator)
                           ? std::string(store::price_field_name(query.series_type))
                           : std::string();
  response.adjusted = query.adjusted;
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      response.items.push_back(query::SymbolValues{symbol.str(), false, {}, false});
      continue;
    }
    auto read = view.values(*info, query);
    if (auto* unanswered = std::get_if<Unanswered>(&read)) {
      return *unanswered;
    }
    response.items.push_back(std::get<query::SymbolValues>(std::move(read)));
  }
  for (const auto& item : response.items) {
    response.next_urls.push_back(
      item.has_more ? std::optional(next_url(request, item.symbol, item.values.back().timestamp))
                    : std::nullopt);
  }
  return response;
}

} // namespace ashare::api
