#include "cli/cache_render.hpp"

#include "core/api/json.hpp"

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
    // One bar more than the limit tells make_symbol_bars whether more exist (D8 next_url).
    auto loaded = view.cache.load_bars(view.base_url, symbol, query.from, query.to, query.sort,
                                       query.limit + 1);
    items.push_back(query::make_symbol_bars(symbol, std::move(loaded), query, *view.anchors[i]));
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
