// What the server needs to know about the store on every request (as_of, source, the known
// symbols and their latest factors), loaded once and reused until the store's generation changes.
#pragma once

#include "core/store/bar_store.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ashare::query {

struct Catalog {
  store::DatasetInfo dataset;
  std::unordered_map<std::string, store::SymbolInfo> symbols;

  // Return the known symbol `symbol` (canonical form), or nullptr.
  const store::SymbolInfo* find(const std::string& symbol) const;
};

// Shared by all worker threads. Thread-safe.
class CatalogCache {
public:
  // Return the catalog for the snapshot `store` currently reads (call inside a ReadTransaction),
  // reloading it through `store` when an import or removal has committed since the last load.
  std::shared_ptr<const Catalog> current(store::BarStore& store);

private:
  std::mutex m_mutex;
  std::shared_ptr<const Catalog> m_catalog;
};

// Load a catalog from `store`.
std::shared_ptr<const Catalog> load_catalog(store::BarStore& store);

} // namespace ashare::query
