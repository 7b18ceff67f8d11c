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

struct SymbolHistory {
  std::vector<domain::Bar> bars;            // raw, ascending by date
  std::vector<std::string> raw_json;        // bars[i] as a JSON object
  std::vector<std::string> adjusted_json;   // bars[i] forward-adjusted (D8), as a JSON object
  std::array<store::PriceSeries, 4> series; // by PriceField: what indicator requests read (D9)
  std::size_t bytes = 0;                    // roughly what the entry holds
};

// Return the history of `symbol` read from `store`, rendered against its `latest_factor`.
std::shared_ptr<const SymbolHistory>
load_symbol_history(store::BarStore& store, const std::string& symbol, double latest_factor);

// Return what run_bar_query returns for `symbol` under `query`, taken from `history`, and put the
// JSON of each returned bar (raw or adjusted as `query` asks) in `bar_json`.
query::SymbolBars slice_history(const SymbolHistory& history,
                                const std::string& symbol,
                                const query::BarQuery& query,
                                double latest_factor,
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
