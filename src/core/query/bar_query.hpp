// The bars query of SPEC "Daily bars": per symbol, the bars of [from, to] sorted, limited (with
// has_more, D8) and summarised. pick_window() alone decides sort, limit and has_more, over a
// symbol's bars in ascending order: a whole history in memory (query/history) or a bounded read
// from a store (read_window). Validation and plans are the API's; unknown symbols are items with
// `known == false`, since only the API knows what that means (D1).
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/symbol.hpp"
#include "core/query/summary.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
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

// An item with its bars' numbers as whole 1/10000s beside them, one per bar (CompactBars).
struct ExactWindow {
  SymbolBars item;
  std::vector<domain::BarTenThousandths> exact;
};

// Which bars of a symbol's ascending bars a window returns.
struct WindowPick {
  std::size_t first = 0; // index of the earliest returned bar
  std::size_t end = 0;   // one past the latest returned bar (first == end: none)
  bool has_more = false; // `limit` left bars of [from, to] out (D8 next_url)

  std::size_t count() const { return end - first; }
};

// Return the bars of `ascending` (ascending by date) that `query` returns: those of
// [query.from, query.to], the first query.limit of them in query.sort order (for desc, the latest).
WindowPick pick_window(std::span<const domain::Bar> ascending, const BarQuery& query);

// As pick_window() over bars whose dates are `ascending_dates`.
WindowPick pick_window(std::span<const domain::Date> ascending_dates, const BarQuery& query);

// Return the item of known symbol `symbol` from `ascending`, its bars (adjusted as `query` asks)
// in ascending order: the bars pick_window() returns, in query.sort order, with the summary when
// asked.
SymbolBars
window_item(std::string symbol, std::span<const domain::Bar> ascending, const BarQuery& query);

// As window_item(), with `pick` = pick_window(ascending, query) already known.
SymbolBars window_item(std::string symbol,
                       std::span<const domain::Bar> ascending,
                       const BarQuery& query,
                       const WindowPick& pick);

// Reads up to `limit` bars of one symbol with trade_date in [from, to], ordered by `order`.
using BarReader = std::function<std::vector<domain::Bar>(
    domain::Date from, domain::Date to, domain::SortOrder order, std::int64_t limit)>;

// Return the item of known symbol `symbol` read through `read` without its whole history (the
// bounded read: the query.limit + 1 bars from the end the sort starts at, the extra one only
// telling has_more), forward-adjusted to `latest_factor` (D8) when `query` asks, then picked by
// pick_window() as window_item() does.
SymbolBars
read_window(std::string symbol, const BarReader& read, const BarQuery& query, double latest_factor);

} // namespace ashare::query
