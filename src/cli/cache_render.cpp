#include "cli/cache_render.hpp"

#include "core/api/json.hpp"
#include "core/query/adjustment.hpp"

namespace ashare::cli {

std::string render_cached_bars(const api::BarsRequest& request, const CachedView& view) {
  const auto& query = request.query;
  std::vector<query::SymbolBars> items;
  for (std::size_t i = 0; i < query.symbols.size(); ++i) {
    const std::string& symbol = query.symbols[i].str();
    if (!view.anchors[i]) {
      items.push_back(query::SymbolBars{symbol, false, {}, false, std::nullopt});
      continue;
    }
    auto loaded = query::read_window(
      [&](domain::Date from, domain::Date to, domain::SortOrder order, std::int64_t limit) {
        return view.cache.load_bars(view.base_url, symbol, from, to, order, limit);
      },
      query);
    if (query.adjusted) {
      loaded = query::forward_adjusted(loaded, *view.anchors[i]);
    }
    items.push_back(query::window_item(symbol, loaded, query));
  }
  const auto response =
    api::make_bars_response(request, view.request_id, view.dataset, std::move(items));
  return api::bars_to_json(response, std::nullopt);
}

std::string render_cached_indicators(const api::IndicatorRequest& request, const CachedView& view) {
  const auto& query = request.query;
  api::IndicatorResponse response;
  response.request_id = view.request_id;
  response.single = query.symbols.size() == 1;
  response.expand_underlying = request.expand_underlying;
  response.series_type = std::string(store::price_field_name(query.series_type));
  response.adjusted = query.adjusted;
  for (std::size_t i = 0; i < query.symbols.size(); ++i) {
    const std::string& symbol = query.symbols[i].str();
    const auto series = view.cache.load_price_series(view.base_url, symbol, query.series_type);
    response.items.push_back(
        query::values_from_series(symbol, series, query, view.anchors[i].value_or(1)));
  }
  return api::indicators_to_json(response);
}

} // namespace ashare::cli
