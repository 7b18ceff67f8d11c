#include "core/api/indicator_endpoint.hpp"

#include "core/api/json.hpp"
#include "core/api/params.hpp"
#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"

#include <algorithm>

namespace ashare::api {
namespace {

using query::Indicator;

// Run `query`: one item per symbol, in order, each over its whole history (D9) from `view`;
// nullopt when a history is not in memory and `view` may not load it.
std::optional<std::vector<query::SymbolValues>>
cached_indicator_items(const query::Catalog& catalog,
                       const query::IndicatorQuery& query,
                       StoreView& view) {
  std::vector<query::SymbolValues> items;
  items.reserve(query.symbols.size());
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      items.push_back(query::SymbolValues{symbol.str(), false, {}});
      continue;
    }
    const auto history = view.history(*info);
    if (!history) {
      return std::nullopt;
    }
    items.push_back(query::values_from_series(info->symbol,
                                              history->history.price_series(query.series_type), query,
                                              info->latest_factor));
  }
  return items;
}

} // namespace

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
      return make_error(ErrorCode::plan_limit,
                        name + " reaches earlier than " + earliest->iso()
                          + ", the earliest date reachable" + on_plan(caller.plan) + " (as_of "
                          + as_of->iso() + ")");
    }
  }
  if (lower_bounds.empty()) {
    request.query.filter.clip_gte = earliest->t_ms();
  }
  return Ok{};
}

Result<Prepared> prepare_indicator(Indicator indicator,
                                   const QueryParams& params,
                                   const Caller& caller,
                                   StoreView& view,
                                   const std::string& request_id) {
  auto parsed = parse_indicator_request(indicator, params);
  if (!parsed) {
    return parsed.error();
  }
  IndicatorRequest request = std::move(*parsed);

  const auto catalog = view.catalog();
  if (!catalog) {
    return Prepared::defer();
  }
  if (auto status = check_single_symbol_known(request.query.symbols, *catalog); !status) {
    return status.error();
  }
  if (auto status = check_indicator_plan(request, caller, catalog->dataset.as_of); !status) {
    return status.error();
  }
  request.query.limit = request.limit.value_or(10);

  auto items = cached_indicator_items(*catalog, request.query, view);
  if (!items) {
    return Prepared::defer();
  }
  IndicatorResponse response;
  response.request_id = request_id;
  response.single = request.query.symbols.size() == 1;
  response.expand_underlying = request.expand_underlying;
  response.series_type = std::string(store::price_field_name(request.query.series_type));
  response.adjusted = request.query.adjusted;
  response.items = std::move(*items);
  const auto cost = std::count_if(response.items.begin(), response.items.end(),
                                  [](const auto& item) { return item.known; });
  return Prepared{cost, [response = std::move(response)](std::optional<std::int64_t>) {
                    return indicators_to_json(response);
                  }};
}

} // namespace ashare::api
