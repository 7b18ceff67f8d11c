#include "core/query/bar_query.hpp"

#include "core/query/adjustment.hpp"

#include <algorithm>

namespace ashare::query {

namespace {

// pick_window() over `ascending`, whose elements' dates `date_of` reads.
template <class Element, class DateOf>
WindowPick pick_in(std::span<const Element> ascending, const BarQuery& query, DateOf date_of) {
  const auto first = std::lower_bound(
      ascending.begin(), ascending.end(), query.from,
      [&](const Element& element, domain::Date date) { return date_of(element) < date; });
  const auto end = std::upper_bound(
      first, ascending.end(), query.to,
      [&](domain::Date date, const Element& element) { return date < date_of(element); });
  WindowPick pick{static_cast<std::size_t>(first - ascending.begin()),
                  static_cast<std::size_t>(end - ascending.begin()), false};
  // D8: sort first, then keep the first `limit`; has_more when that left bars of the window out.
  if (static_cast<std::int64_t>(pick.count()) > query.limit) {
    pick.has_more = true;
    const auto limit = static_cast<std::size_t>(query.limit);
    if (query.sort == domain::SortOrder::asc) {
      pick.end = pick.first + limit;
    } else {
      pick.first = pick.end - limit;
    }
  }
  return pick;
}

} // namespace

WindowPick pick_window(std::span<const domain::Bar> ascending, const BarQuery& query) {
  return pick_in(ascending, query, [](const domain::Bar& bar) { return bar.trade_date; });
}

WindowPick pick_window(std::span<const domain::Date> ascending_dates, const BarQuery& query) {
  return pick_in(ascending_dates, query, [](domain::Date date) { return date; });
}

SymbolBars
window_item(std::string symbol, std::span<const domain::Bar> ascending, const BarQuery& query) {
  return window_item(std::move(symbol), ascending, query, pick_window(ascending, query));
}

SymbolBars window_item(std::string symbol,
                       std::span<const domain::Bar> ascending,
                       const BarQuery& query,
                       const WindowPick& pick) {
  SymbolBars item{std::move(symbol), true, {}, pick.has_more, std::nullopt};
  const auto picked = ascending.subspan(pick.first, pick.count());
  if (query.sort == domain::SortOrder::asc) {
    item.bars.assign(picked.begin(), picked.end());
  } else {
    item.bars.assign(picked.rbegin(), picked.rend());
  }
  if (query.include_summary) {
    item.summary = summarize(item.bars, query.from, query.to);
  }
  return item;
}

namespace {

// As window_item(), keeping the bars of `ascending` (a bounded read's) instead of copying them.
SymbolBars
window_item(std::string symbol, std::vector<domain::Bar>&& ascending, const BarQuery& query) {
  const auto pick = pick_window(ascending, query);
  SymbolBars item{std::move(symbol), true, std::move(ascending), pick.has_more, std::nullopt};
  auto& bars = item.bars;
  bars.erase(bars.begin() + static_cast<std::ptrdiff_t>(pick.end), bars.end());
  bars.erase(bars.begin(), bars.begin() + static_cast<std::ptrdiff_t>(pick.first));
  if (query.sort == domain::SortOrder::desc) {
    std::reverse(bars.begin(), bars.end());
  }
  if (query.include_summary) {
    item.summary = summarize(bars, query.from, query.to);
  }
  return item;
}

} // namespace

SymbolBars read_window(std::string symbol,
                       const BarReader& read,
                       const BarQuery& query,
                       double latest_factor) {
  auto bars = read(query.from, query.to, query.sort, query.limit + 1);
  if (query.sort == domain::SortOrder::desc) {
    std::reverse(bars.begin(), bars.end());
  }
  if (query.adjusted) {
    forward_adjust(bars, latest_factor);
  }
  return window_item(std::move(symbol), std::move(bars), query);
}

} // namespace ashare::query
