#include "core/query/bar_query.hpp"

#include "core/query/adjustment.hpp"

namespace ashare::query {
namespace {

SymbolBars run_for_symbol(store::BarStore& store,
                          const store::SymbolInfo& info,
                          const BarQuery& query) {
  SymbolBars item{info.symbol, true, {}, false, std::nullopt};
  // One row more than asked tells whether `limit` cut the window short (D8 next_url).
  item.bars = store.load_bars(info.symbol, query.from, query.to, query.sort, query.limit + 1);
  if (static_cast<std::int64_t>(item.bars.size()) > query.limit) {
    item.bars.pop_back();
    item.has_more = true;
  }
  if (query.adjusted) {
    // D8: the anchor is the symbol's latest stored bar, never the latest bar of the range.
    for (auto& bar : item.bars) {
      bar = adjust_forward(bar, info.latest_factor);
    }
  }
  if (query.include_summary) {
    item.summary = summarize(item.bars, query.from, query.to);
  }
  return item;
}

} // namespace

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
      items.push_back(run_for_symbol(store, *info, query));
    }
  }
  return items;
}

} // namespace ashare::query
