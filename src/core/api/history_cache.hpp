// The server's memory of the store: each symbol's whole history in one of two forms. Rendered
// (query/history, with every bar already written as JSON, raw and forward-adjusted), a bars
// request picks its window (query::pick_window) and joins text instead of reading SQLite and
// formatting numbers, and an indicator request reads its series (D9: the whole history) from
// memory; about 700 bytes a bar. Compact (query/compact_bars), a window is decoded and written
// per request; about 20 bytes a bar, so that a whole market's recent years fit (issue 11, P5).
// An entry belongs to one store generation (any import or removal makes it stale); entries beyond
// a byte budget go, least recently used first.
#pragma once

#include "core/query/bar_query.hpp"
#include "core/query/compact_bars.hpp"
#include "core/query/history.hpp"
#include "core/query/indicator_query.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ashare::api {

// The JSON objects of a list of bars written one after another, each followed by a comma, so that
// the bars of any date window are one contiguous piece of text.
struct BarsJson {
  std::string json;                // "{bar 0},{bar 1},...,{bar n-1},"
  std::vector<std::uint32_t> ends; // bar i's object ends where its comma is, at ends[i]

  // Return the JSON object of bar `i`.
  std::string_view bar_json(std::size_t i) const;
  // Return the JSON objects of bars [first, end) joined by commas; requires first < end.
  std::string_view joined(std::size_t first, std::size_t end) const;
};

// The indicator series computed over one cached history, kept with it so that an indicator asked
// again is read, not recomputed: RSI's recursion divides at every step of the whole history (D9)
// and cost more than a bars request of that history (issue 11, P4). At most k_max_series are
// kept; the oldest goes first.
class IndicatorSeriesMemo {
public:
  // What decides a series: the query without its symbols, filters, order and limit.
  struct Key {
    query::Indicator indicator = query::Indicator::sma;
    int window = 0;
    int fast = 0, slow = 0, signal = 0;
    double k = 0;
    int n = 0, m1 = 0, m2 = 0;
    store::PriceField field = store::PriceField::close;
    bool adjusted = true;
    query::Convention convention = query::Convention::talib;
    friend bool operator==(const Key&, const Key&) = default;
  };
  // Return the key of the series `query` reads.
  static Key key_of(const query::IndicatorQuery& query);
  static constexpr std::size_t k_max_series = 4;

  // Return the series of `key`, computing it with `compute` (outside the lock) and keeping it
  // when it is not kept yet. Thread-safe.
  std::shared_ptr<const query::IndicatorLines>
  find_or_compute(const Key& key, const std::function<query::IndicatorLines()>& compute) const;

  // Return the number of series kept.
  std::size_t size() const;

private:
  using Series = std::pair<Key, std::shared_ptr<const query::IndicatorLines>>;
  mutable std::mutex m_mutex;
  mutable std::vector<Series> m_series; // oldest first
};

// A history with its bars' JSON: the API's rendering of query::History.
struct RenderedHistory {
  query::History history;
  BarsJson raw_json;
  BarsJson adjusted_json;
  IndicatorSeriesMemo indicators;
  std::size_t bytes = 0; // roughly what the entry holds, its indicator series at most included

  // Return the JSON of the bars a request reads: adjusted or raw.
  const BarsJson& json(bool adjusted_prices) const {
    return adjusted_prices ? adjusted_json : raw_json;
  }
};

// Return `history` with its bars' JSON written.
std::shared_ptr<const RenderedHistory> render_history(query::History history);

// Return about the bytes render_history() holds for a history of `bars` bars: what admission
// weighs before loading one.
std::size_t estimated_history_bytes(std::int64_t bars);

// A window of a rendered history: its item, the JSON of its bars as pieces to join with commas
// (one piece for an ascending window, one per bar for a descending one), and for an ascending
// window its bars where they lie in the history (`in_place`, item.bars left empty): a request
// copies neither its bars' text nor the bars themselves (issue 35).
struct RenderedWindow {
  query::SymbolBars item;
  std::vector<std::string_view> json;
  std::span<const domain::Bar> in_place;

  // Return the window's bars, in the query's order, wherever they are.
  std::span<const domain::Bar> bars() const {
    return in_place.empty() ? std::span<const domain::Bar>(item.bars) : in_place;
  }
};

// Return the window of `symbol` that `query` reads from `rendered` (query::pick_window, with the
// summary of query::window_item); it refers to `rendered`, which must outlive it.
RenderedWindow select_bars(const RenderedHistory& rendered,
                           const std::string& symbol,
                           const query::BarQuery& query);

// The form a history is cached in, if any.
enum class HistoryForm { none, compact, rendered };

// A history found in the cache: in one of the two forms (the other pointer null), or neither.
struct CachedHistory {
  std::shared_ptr<const RenderedHistory> rendered;
  std::shared_ptr<const query::CompactBars> compact;

  explicit operator bool() const { return rendered || compact; }
};

// Return about the bytes a compact history of `bars` bars holds: what admission weighs.
std::size_t estimated_compact_bytes(std::int64_t bars);

class HistoryCache {
public:
  // Rendered histories hold at most this share of the budget (1/k_rendered_share), so that the
  // most used ones are served fastest while the rest of a large market stays compact.
  static constexpr std::size_t k_rendered_share = 8;

  // Keep at most about `budget_bytes` of histories.
  explicit HistoryCache(std::size_t budget_bytes) : m_budget(budget_bytes) {}

  // Keep at most about `budget_bytes` from now on (`serve --cache-budget`), letting the least
  // recently used histories go at once if the cache holds more. Thread-safe.
  void set_budget(std::size_t budget_bytes);

  // Return the rendered history of `symbol` at store `generation`, loading it from `store` (read
  // inside the caller's ReadTransaction, so it matches `generation`) when it is not cached in that
  // form, and keeping it in place of whatever form was cached. Thread-safe.
  std::shared_ptr<const RenderedHistory> find_or_load(store::BarStore& store,
                                                      const std::string& symbol,
                                                      double latest_factor,
                                                      std::int64_t generation);

  // As find_or_load(), for the compact form.
  std::shared_ptr<const query::CompactBars>
  find_or_load_compact(store::BarStore& store, const std::string& symbol, std::int64_t generation);

  // Return the history of `symbol` at store `generation` when it is cached, in whichever form;
  // never reads the store. Thread-safe.
  CachedHistory find(const std::string& symbol, std::int64_t generation);

  // Return the form worth loading the history of `symbol` (`bars` bars, not cached) in. Loading
  // costs about ten reads of a window's rows, so (issue 11, P5): never on a symbol's first use
  // (its request reads just its rows, so a market of symbols asked for once each does not churn
  // the cache); rendered from its second use on when that fits in free room within the rendered
  // share; else compact, into free room, or in place of the least recently used history only
  // when the symbol has been asked for more than twice as often (counts that halve over time, as
  // in TinyLFU), so that a load spread evenly over more symbols than fit does not evict a history
  // per request; never a history beyond the budget. Thread-safe.
  HistoryForm admit(const std::string& symbol, std::int64_t bars);

  // Return whether the compact history of `symbol` (`bars` bars, just found by find()) is worth
  // rendering in its place (issue 11, P5): when the rendered form fits in free room, or in place
  // of the least recently used rendered history only, whose symbol was asked for less than half
  // as often. So the rendered share goes to the symbols most asked for lately, not to the first
  // ones asked twice, and a load spread evenly over a market does not churn it. Thread-safe.
  bool worth_rendering(const std::string& symbol, std::int64_t bars);

  // Return the bytes held now.
  std::size_t bytes() const;

private:
  struct Entry {
    std::int64_t generation = 0;
    CachedHistory history;
    std::size_t bytes = 0;
    std::list<std::string>::iterator position;          // in m_recent
    std::list<std::string>::iterator rendered_position; // in m_recent_rendered, when rendered
  };
  // Keep `history` (`bytes`) as the entry of `symbol` at `generation`, unless a newer generation
  // is kept or it exceeds the budget. Requires the lock.
  void keep(const std::string& symbol,
            std::int64_t generation,
            CachedHistory history,
            std::size_t bytes);
  void erase(std::unordered_map<std::string, Entry>::iterator entry);

  mutable std::mutex m_mutex;
  std::size_t m_budget;
  std::size_t m_bytes = 0;
  std::size_t m_rendered_bytes = 0; // of m_bytes
  std::unordered_map<std::string, Entry> m_entries;
  std::list<std::string> m_recent;          // most recently used first
  std::list<std::string> m_recent_rendered; // the rendered ones of m_recent, in the same order
  // How often each symbol was asked for lately (hits and misses), halved every k_age_period
  // counts and whenever more than k_max_counted symbols are counted (about 64 bytes each).
  std::uint32_t& count_of(const std::string& symbol);
  static constexpr std::size_t k_max_counted = 16384;
  static constexpr std::uint64_t k_age_period = 65536;
  std::unordered_map<std::string, std::uint32_t> m_counts;
  std::uint64_t m_counted = 0; // since the last halving
};

} // namespace ashare::api
