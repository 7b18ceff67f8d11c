// What the server needs to know about the store on every request (as_of, source, the known
// symbols and their latest factors), loaded once and reused until the store's generation changes;
// between checks of the generation, the store's change counter says whether it may have.
#pragma once

#include "core/query/series.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/change_counter.hpp"

#include <chrono>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>

namespace ashare::query {

struct Catalog {
  store::DatasetInfo dataset;
  // Each known code's series (D19: an aliased code's info is the joined series', under its own name).
  std::unordered_map<std::string, store::SymbolInfo> symbols;
  Aliases aliases;

  // Return the known symbol `symbol` (canonical form), or nullptr.
  const store::SymbolInfo* find(const std::string& symbol) const;

  // Return meta.source for a response serving `served` (D8): the distinct sources recorded for
  // the known ones, in their order, joined by ","; with none known, the last import's source.
  std::string source_of(std::span<const domain::Symbol> served) const;
};

// Shared by all threads. Thread-safe.
class CatalogCache {
public:
  using Clock = std::chrono::steady_clock;

  // Watch `changes`, the data store's change counter (nullptr: find_fresh() always misses).
  explicit CatalogCache(const store::ChangeCounter* changes = nullptr) : m_changes(changes) {}

  // Return the catalog for the snapshot `store` currently reads (call inside a ReadTransaction),
  // reloading it through `store` when an import or removal has committed since the last load,
  // and remember at `now` that it was checked.
  std::shared_ptr<const Catalog> current(store::BarStore& store, Clock::time_point now = Clock::now());

  // Return the catalog without touching the store when it is known current at `now`: the change
  // counter has not moved since the last current() and that was under k_recheck_interval ago.
  // Else nullptr: call current().
  std::shared_ptr<const Catalog> find_fresh(Clock::time_point now);

  // Return the last catalog loaded, however old (nullptr before the first): what a server answers
  // from while its store is out of reach (D15).
  std::shared_ptr<const Catalog> remembered();

private:
  const store::ChangeCounter* m_changes;
  std::mutex m_mutex;
  std::shared_ptr<const Catalog> m_catalog;
  store::LastCheck m_checked; // of m_catalog
};

// Return meta.source for a response whose served symbols have `sources`, in request order (D8):
// each distinct one once, joined by ","; `fallback` (the last import's source) when none.
std::string served_source(std::span<const std::string> sources, const std::string& fallback);

// Load a catalog from `store`.
std::shared_ptr<const Catalog> load_catalog(store::BarStore& store);

// Load a catalog from `store` that knows only `symbols` (those of them that are stored): what one
// request of a one-shot command needs, whatever the number of symbols in the store.
std::shared_ptr<const Catalog> load_catalog(store::BarStore& store,
                                            std::span<const domain::Symbol> symbols);

} // namespace ashare::query
