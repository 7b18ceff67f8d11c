// The bars query of SPEC "Daily bars": per symbol, the bars of [from, to] sorted, limited, adjusted
// per D8 and summarised. Validation and plans are the caller's (api/bars_endpoint); unknown symbols
// come back as items with `known == false`, since only the caller knows what that means (D1).
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/symbol.hpp"
#include "core/query/catalog.hpp"
#include "core/query/summary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ashare::query {

struct BarQuery {
  std::vector<domain::Symbol> symbols; // canonical, distinct, in request order
  domain::Date from;
  domain::Date to;
  bool adjusted = true;
  domain::SortOrder sort = domain::SortOrder::asc;
  std::int64_t limit = 5000; // per symbol
  bool include_summary = false;

  friend bool operator==(const BarQuery&, const BarQuery&) = default;
};

struct SymbolBars {
  std::string symbol;
  bool known = false;            // false: the store does not know the symbol (no bars, no summary)
  std::vector<domain::Bar> bars; // sorted, limited, adjusted when asked
  bool has_more = false;         // `limit` left bars of [from, to] out
  std::optional<Summary> summary;
};

// Return the item of known symbol `symbol` from `loaded`: its bars of [query.from, query.to] in
// query.sort order, at most query.limit + 1 of them (the extra one only tells `has_more`). Prices
// are forward-adjusted to `latest_factor` (D8) when query.adjusted; the summary is added when
// asked. Both the server (bars from its store) and the remote-mode cache (bars it fetched) use it.
SymbolBars make_symbol_bars(std::string symbol,
                            std::vector<domain::Bar> loaded,
                            const BarQuery& query,
                            double latest_factor);

// Return the item of known symbol `symbol` from `bars`, already adjusted as `query` asks (the
// server's history cache keeps both renderings): as make_symbol_bars, without the adjustment.
SymbolBars finish_symbol_bars(std::string symbol,
                              std::vector<domain::Bar> bars,
                              const BarQuery& query);

// Run `query` against `store`, whose snapshot `catalog` describes; one item per symbol, in order.
std::vector<SymbolBars> run_bar_query(store::BarStore& store,
                                      const Catalog& catalog,
                                      const BarQuery& query);

} // namespace ashare::query
