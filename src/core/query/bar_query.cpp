#include "core/query/bar_query.hpp"

#include "core/query/adjustment.hpp"

namespace ashare::query {

SymbolBars make_symbol_bars(std::string symbol,
                            std::vector<domain::Bar> loaded,
                            const BarQuery& query,
                            double latest_factor) {
  if (query.adjusted) {
    // D8: the anchor is the symbol's latest stored bar, never the latest bar of the range.
    for (auto& bar : loaded) {
      bar = adjust_forward(bar, latest_factor);
    }
  }
  return finish_symbol_bars(std::move(symbol), std::move(loaded), query);
}

SymbolBars finish_symbol_bars(std::string symbol,
                              std::vector<domain::Bar> bars,
                              const BarQuery& query) {
  SymbolBars item{std::move(symbol), true, std::move(bars), false, std::nullopt};
  // One row more than asked tells whether `limit` cut the window short (D8 next_url).
  if (static_cast<std::int64_t>(item.bars.size()) > query.limit) {
    item.bars.resize(static_cast<std::size_t>(query.limit));
    item.has_more = true;
  }
  if (query.include_summary) {
    item.summary = summarize(item.bars, query.from, query.to);
  }
  return item;
}

std::vector<SymbolBars> run_bar_query(store::BarStore& store,
                                      const Catalog& catalog,
                                      const BarQuery& query) {
  std::vector<SymbolBars> items;
  items.reserve(query.symbols.size());
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      items.push_back(SymbolBars{symbol.str(), false, {}, false, std::nullopt});
    } else {
      auto loaded =
        store.load_bars(info->symbol, query.from, query.to, query.sort, query.limit + 1);
      items.push_back(
        make_symbol_bars(info->symbol, std::move(loaded), query, info->latest_factor));
    }
  }
  return items;
}

} // namespace ashare::query
