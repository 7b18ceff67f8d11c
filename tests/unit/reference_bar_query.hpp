// The reference the served bars path is compared with, byte for byte (issue 10): the bars query
// written the plain way, independently of query::pick_window and the history cache: each window
// read from SQLite in the asked order with one bar more than the limit, each bar adjusted on its
// own (D8), the extra bar telling has_more.
#pragma once

#include "core/query/adjustment.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"

#include <vector>

namespace ashare::test {

// Return the items of `query` (one per symbol, in order) read from `store`, whose snapshot
// `catalog` describes.
inline std::vector<query::SymbolBars> reference_bar_query(store::BarStore& store,
                                                          const query::Catalog& catalog,
                                                          const query::BarQuery& query) {
  std::vector<query::SymbolBars> items;
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      items.push_back(query::SymbolBars{symbol.str(), false, {}, false, std::nullopt});
      continue;
    }
    query::SymbolBars item{info->symbol, true, {}, false, std::nullopt};
    item.bars = store.load_bars(info->symbol, query.from, query.to, query.sort, query.limit + 1);
    if (query.adjusted) {
      for (auto& bar : item.bars) {
        bar = query::adjust_forward(bar, info->latest_factor);
      }
    }
    if (static_cast<std::int64_t>(item.bars.size()) > query.limit) {
      item.bars.resize(static_cast<std::size_t>(query.limit));
      item.has_more = true;
    }
    if (query.include_summary) {
      item.summary = query::summarize(item.bars, query.from, query.to);
    }
    items.push_back(std::move(item));
  }
  return items;
}

} // namespace ashare::test
