#include "core/api/bars_endpoint.hpp"

#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"

namespace ashare::api {

using domain::Date;

Status
check_bars_plan(const BarsRequest& request, const Caller& caller, std::optional<Date> as_of) {
  if (auto status = check_plan_maxima(caller.plan, request.query.symbols.size(), request.limit);
      !status) {
    return status;
  }
  if (as_of) {
    const auto earliest = auth::earliest_reachable(caller.plan, *as_of);
    if (earliest && request.query.from < *earliest) {
      return make_error(ErrorCode::plan_limit,
                        "from \"" + request.query.from.iso() + "\" is earlier than "
                            + earliest->iso() + ", the earliest date reachable"
                            + on_plan(caller.plan) + " (as_of " + as_of->iso() + ")");
    }
  }
  return Ok{};
}

Status apply_bars_plan(BarsRequest& request, const Caller& caller, std::optional<Date> as_of) {
  if (!caller.plan_checked_by_remote) {
    if (auto status = check_bars_plan(request, caller, as_of); !status) {
      return status;
    }
  }
  // D4 / D6: without `limit`, the plan's maximum.
  request.query.limit = request.limit_under(caller.plan);
  return Ok{};
}

std::variant<BarsResponse, Unanswered> answer_bars(const BarsRequest& request,
                                                   const query::Catalog& catalog,
                                                   Source& source,
                                                   const std::string& request_id) {
  const auto& query = request.query;
  BarsResponse response;
  response.request_id = request_id;
  response.single = query.symbols.size() == 1;
  response.adjusted = query.adjusted;
  response.from = query.from;
  response.to = query.to;
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      response.items.push_back(query::SymbolBars{symbol.str(), false, {}, false, {}});
      response.bar_json.emplace_back();
      response.bar_exact.emplace_back();
      response.keep_alive.emplace_back();
      response.bars_in_place.emplace_back();
      continue;
    }
    auto read = source.window(*info, query);
    if (auto* unanswered = std::get_if<Unanswered>(&read)) {
      return *unanswered;
    }
    auto& window = std::get<WindowBars>(read);
    response.items.push_back(std::move(window.item));
    response.bar_json.push_back(std::move(window.json));
    response.bar_exact.push_back(std::move(window.exact));
    response.keep_alive.push_back(std::move(window.keep_alive));
    response.bars_in_place.push_back(window.in_place);
  }
  response.dataset = catalog.dataset;
  response.dataset.source = catalog.source_of(query.symbols); // D8: the symbols served
  for (std::size_t i = 0; i < response.items.size(); ++i) {
    const auto& item = response.items[i];
    response.next_urls.push_back(
        item.has_more
            ? std::optional(next_url(request, item.symbol, item_bars(response, i).back().trade_date))
            : std::nullopt);
  }
  return response;
}

} // namespace ashare::api
