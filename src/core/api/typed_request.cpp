#include "core/api/typed_request.hpp"

#include "core/overloaded.hpp"

#include <algorithm>

namespace ashare::api {
namespace {

// Return the symbol of `symbols` spelled `name`: the page of that item alone.
std::vector<domain::Symbol> only(const std::vector<domain::Symbol>& symbols, const std::string& name) {
  const auto it = std::find_if(symbols.begin(), symbols.end(),
                               [&name](const domain::Symbol& s) { return s.str() == name; });
  return it == symbols.end() ? symbols : std::vector<domain::Symbol>{*it};
}

} // namespace

std::string to_target(const TypedRequest& request) {
  return std::visit(Overloaded{[](const HealthRequest&) { return std::string(k_health_path); },
                               [](const auto& data) { return data.to_target(); }},
                    request);
}

const std::vector<domain::Symbol>& symbols_of(const TypedRequest& request) {
  static const std::vector<domain::Symbol> k_none;
  return std::visit(
    Overloaded{[](const HealthRequest&) -> const std::vector<domain::Symbol>& { return k_none; },
               [](const MembersRequest&) -> const std::vector<domain::Symbol>& { return k_none; },
               [](const auto& data) -> const std::vector<domain::Symbol>& {
                 return data.query.symbols;
               }},
    request);
}

BarsRequest next_request(const BarsRequest& request, const std::string& symbol, domain::Date last) {
  // D8: the request as sent, for `symbol` alone, with the window moved past `last`.
  BarsRequest next = request;
  next.query.symbols = only(request.query.symbols, symbol);
  next.params.set("symbol", symbol);
  if (request.query.sort == domain::SortOrder::asc) {
    next.query.from = last.plus_days(1);
  } else {
    next.query.to = last.plus_days(-1);
  }
  return next;
}

std::string next_url(const BarsRequest& request, const std::string& symbol, domain::Date last) {
  const auto next = next_request(request, symbol, last);
  return bars_target(next.query.from, next.query.to, next.params);
}

IndicatorRequest
next_request(const IndicatorRequest& request, const std::string& symbol, std::int64_t last_t) {
  // D9: the range moved past the last value (`timestamp.gt` ascending, `timestamp.lt`
  // descending), for `symbol` alone, every other parameter kept; the plan's clip is the next
  // answer's to set again.
  IndicatorRequest next = request;
  next.query.symbols = only(request.query.symbols, symbol);
  next.query.filter.clip_gte.reset();
  auto& filter = next.query.filter;
  (request.query.order == domain::SortOrder::asc ? filter.gt : filter.lt) = last_t;
  return next;
}

std::string
next_url(const IndicatorRequest& request, const std::string& symbol, std::int64_t last_t) {
  return next_request(request, symbol, last_t).to_target();
}

} // namespace ashare::api
