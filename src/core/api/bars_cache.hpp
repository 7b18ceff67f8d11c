// The API's memory of the store: each symbol's whole stored history, raw, with every bar already
// written as JSON both raw and forward-adjusted (D8), so that a bars request slices a vector
// instead of reading SQLite and formatting numbers, and an indicator request reads its series
// (D9: the whole history) from memory. An entry belongs to one store generation (any import or
// removal makes it stale); entries beyond a byte budget go, least recently used first.
#pragma once

#include "core/domain/bar.hpp"
#include "core/query/bar_query.hpp"
#include "core/store/bar_store.hpp"

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ashare::api {

// One rendering of a history's bars (raw, or forward-adjusted per D8), ascending by date: the
// bars and their JSON objects written one after another, each followed by a comma, so that the
// bars of any date window are one contiguous piece of text.
struct RenderedBars {
  std::vector<domain::Bar> bars;
  std::string json;                // "{bar 0},{bar 1},...,{bar n-1},"
  std::vector<std::uint32_t> ends; // bar i's object ends where its comma is, at ends[i]

  // Return the JSON object of bar `i`.
  std::string_view bar_json(std::size_t i) const;
  // Return the JSON objects of bars [first, end) joined by commas; requires first < end.
  std::string_view joined(std::size_t first, std::size_t end) const;
};

struct SymbolHistory {
  RenderedBars raw;
  RenderedBars adjusted;                    // D8, against the symbol's latest factor
  std::array<store::PriceSeries, 4> series; // by PriceField: what indicator requests read (D9)
  std::size_t bytes = 0;                    // roughly what the entry holds
};

// Return the history of `symbol` read from `store`, rendered against its `latest_factor`.
std::shared_ptr<const SymbolHistory>
load_symbol_history(store::BarStore& store, const std::string& symbol, double latest_factor);

// Return what run_bar_query returns for `symbol` under `query`, taken from `history`, and put the
// JSON of the returned bars (raw or adjusted as `query` asks) in `bar_json` as pieces to join with
// commas: one piece for an ascending slice, one per bar for a descending one.
query::SymbolBars slice_history(const SymbolHistory& history,
                                const std::string& symbol,
                                const query::BarQuery& query,
                                std::vector<std::string_view>& bar_json);

// Return the `field` prices and factors of `history`, as BarStore::load_price_series would (D9).
const store::PriceSeries& price_series(const SymbolHistory& history, store::PriceField field);

class BarsCache {
public:
  // Keep at most about `budget_bytes` of histories.
  explicit BarsCache(std::size_t budget_bytes) : m_budget(budget_bytes) {}

  // Return the history of `symbol` at store `generation`, loading it from `store` (read inside the
  // caller's ReadTransaction, so it matches `generation`) when it is not cached. Thread-safe.
  std::shared_ptr<const SymbolHistory> find_or_load(store::BarStore& store,
                                                    const std::string& symbol,
                                                    double latest_factor,
                                                    std::int64_t generation);

  // Return the history of `symbol` at store `generation` when it is cached, else nullptr; never
  // reads the store. Thread-safe.
  std::shared_ptr<const SymbolHistory> find(const std::string& symbol, std::int64_t generation);

  // Return the bytes held now.
  std::size_t bytes() const;

private:
  struct Entry {
    std::int64_t generation = 0;
    std::shared_ptr<const SymbolHistory> history;
    std::list<std::string>::iterator position; // in m_recent
  };
  void erase(std::unordered_map<std::string, Entry>::iterator entry);

  mutable std::mutex m_mutex;
  std::size_t m_budget;
  std::size_t m_bytes = 0;
  std::unordered_map<std::string, Entry> m_entries;
  std::list<std::string> m_recent; // most recently used first
};

} // namespace ashare::api
