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
                                                   DataView& view,
                                                   const std::string& request_id) {
  const auto& query = request.query;
  BarsResponse response;
  response.request_id = request_id;
  response.single = query.symbols.size() == 1;
  response.adjusted = query.adjusted;
  response.from = query.from;
  response.to = query.to;
  response.items.reserve(query.symbols.size());
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      response.items.emplace_back(query::SymbolBars{symbol.str(), false, {}, false, {}});
      continue;
    }
    auto read = view.window(*info, query);
    if (auto* unanswered = std::get_if<Unanswered>(&read)) {
      return *unanswered;
    }
    auto& item = response.items.emplace_back(std::get<BarsItem>(std::move(read)));
    if (item.has_more) {
      item.next_url = next_url(request, item.symbol, item.bars().back().trade_date);
    }
  }
  response.dataset = catalog.dataset;
  response.dataset.source = catalog.source_of(query.symbols); // D8: the symbols served
  return response;
}

} // namespace ashare::api
