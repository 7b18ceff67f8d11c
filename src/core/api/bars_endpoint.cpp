#include "core/api/bars_endpoint.hpp"

#include "core/api/json.hpp"
#include "core/api/params.hpp"
#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"

#include <algorithm>

namespace ashare::api {
namespace {

using domain::Date;
using domain::SortOrder;


// Answer `request` from the histories of `view` (query::window_item over each whole history),
// with each bar's JSON already written; nullopt when a history is not in memory and `view` may
// not load it.
std::optional<BarsResponse> cached_bars_response(const BarsRequest& request,
                                                 const std::string& request_id,
                                                 const query::Catalog& catalog,
                                                 StoreView& view) {
  std::vector<query::SymbolBars> items;
  std::vector<std::vector<std::string_view>> bar_json(request.query.symbols.size());
  std::vector<std::shared_ptr<const void>> keep_alive;
  for (std::size_t i = 0; i < request.query.symbols.size(); ++i) {
    const auto* info = catalog.find(request.query.symbols[i].str());
    if (info == nullptr) {
      items.push_back(query::SymbolBars{request.query.symbols[i].str(), false, {}, false, {}});
      continue;
    }
    auto history = view.history(*info);
    if (!history) {
      return std::nullopt;
    }
    items.push_back(
      select_bars(*history, info->symbol, request.query, bar_json[i]));
    keep_alive.push_back(std::move(history));
  }
  auto response = make_bars_response(request, request_id, catalog.dataset, std::move(items));
  response.bar_json = std::move(bar_json);
  response.keep_alive = std::move(keep_alive);
  return response;
}

} // namespace

Status check_bars_plan(const BarsRequest& request,
                       const Caller& caller,
                       std::optional<Date> as_of) {
  if (auto status = check_plan_maxima(caller.plan, request.query.symbols.size(), request.limit);
      !status) {
    return status;
  }
  if (as_of) {
    const auto earliest = auth::earliest_reachable(caller.plan, *as_of);
    if (earliest && request.query.from < *earliest) {
      return make_error(ErrorCode::plan_limit,
                        "from \"" + request.query.from.iso() + "\" is earlier than "
                          + earliest->iso() + ", the earliest date reachable" + on_plan(caller.plan)
                          + " (as_of " + as_of->iso() + ")");
    }
  }
  return Ok{};
}

BarsResponse make_bars_response(const BarsRequest& request,
                                const std::string& request_id,
                                const store::DatasetInfo& dataset,
                                std::vector<query::SymbolBars> items) {
  BarsResponse response;
  response.request_id = request_id;
  response.single = request.query.symbols.size() == 1;
  response.adjusted = request.query.adjusted;
  response.from = request.query.from;
  response.to = request.query.to;
  response.dataset = dataset;
  response.items = std::move(items);
  for (const auto& item : response.items) {
    response.next_urls.push_back(item.has_more ? std::optional(next_url(request, item.symbol, item.bars.back().trade_date))
                                               : std::nullopt);
  }
  return response;
}

Result<Prepared> prepare_bars(const BarsPath& path,
                              const QueryParams& params,
                              const Caller& caller,
                              StoreView& view,
                              const std::string& request_id) {
  auto parsed = parse_bars_request(path, params);
  if (!parsed) {
    return parsed.error();
  }
  BarsRequest request = std::move(*parsed);

  const auto catalog = view.catalog();
  if (!catalog) {
    return Prepared::defer();
  }
  if (auto status = check_single_symbol_known(request.query.symbols, *catalog); !status) {
    return status.error();
  }
  if (auto status = check_bars_plan(request, caller, catalog->dataset.as_of); !status) {
    return status.error();
  }
  request.query.limit = request.limit.value_or(auth::plan_limits(caller.plan).max_limit);

  auto response = cached_bars_response(request, request_id, *catalog, view);
  if (!response) {
    return Prepared::defer();
  }
  const auto cost = std::count_if(response->items.begin(), response->items.end(),
                                  [](const auto& item) { return item.known; });
  return Prepared{cost,
                  [response = std::move(*response)](std::optional<std::int64_t> charged) {
                    return bars_to_json(response, charged);
                  }};
}

} // namespace ashare::api
