#include "core/query/catalog.hpp"

#include <algorithm>

namespace ashare::query {

const store::SymbolInfo* Catalog::find(const std::string& symbol) const {
  const auto it = symbols.find(symbol);
  return it == symbols.end() ? nullptr : &it->second;
}

std::string served_source(std::span<const std::string> sources, const std::string& fallback) {
  std::vector<std::string_view> distinct;
  for (const auto& source : sources) {
    if (std::find(distinct.begin(), distinct.end(), source) == distinct.end()) {
      distinct.push_back(source);
    }
  }
  if (distinct.empty()) {
    return fallback;
  }
  std::string joined;
  for (const auto source : distinct) {
    joined += joined.empty() ? "" : ",";
    joined += source;
  }
  return joined;
}

std::string Catalog::source_of(std::span<const domain::Symbol> served) const {
  std::vector<std::string> sources;
  for (const auto& symbol : served) {
    if (const auto* info = find(symbol.str())) { // else not served: an item with an error
      // A store written before schema 2 recorded no source per symbol: its import's is the one.
      sources.push_back(info->source.empty() ? dataset.source : info->source);
    }
  }
  return served_source(sources, dataset.source);
}

std::shared_ptr<const Catalog> load_catalog(store::BarStore& store) {
  auto catalog = std::make_shared<Catalog>();
  catalog->dataset = store.load_dataset_info();
  for (auto& info : store.load_symbols()) {
    std::string key = info.symbol;
    catalog->symbols.emplace(std::move(key), std::move(info));
  }
  return catalog;
}

std::shared_ptr<const Catalog> load_catalog(store::BarStore& store,
                                            std::span<const domain::Symbol> symbols) {
  auto catalog = std::make_shared<Catalog>();
  catalog->dataset = store.load_dataset_info();
  for (const auto& symbol : symbols) {
    if (auto info = store.find_symbol(symbol.str())) {
      catalog->symbols.emplace(symbol.str(), std::move(*info));
    }
  }
  return catalog;
}

std::shared_ptr<const Catalog> CatalogCache::current(store::BarStore& store, Clock::time_point now) {
  // The counter first: a change announced after this read is seen by the next check.
  const auto counter = m_changes != nullptr ? m_changes->load() : std::nullopt;
  const std::int64_t generation = store.load_generation();
  {
    std::lock_guard lock(m_mutex);
    if (m_catalog && m_catalog->dataset.generation == generation) {
      m_checked = store::LastCheck{counter, now};
      return m_catalog;
    }
  }
  auto fresh = load_catalog(store);
  std::lock_guard lock(m_mutex);
  // Another thread may have loaded a newer one meanwhile; keep the newest.
  if (!m_catalog || m_catalog->dataset.generation < fresh->dataset.generation) {
    m_catalog = fresh;
    m_checked = store::LastCheck{counter, now};
  }
  return fresh;
}

std::shared_ptr<const Catalog> CatalogCache::remembered() {
  std::lock_guard lock(m_mutex);
  return m_catalog;
}

std::shared_ptr<const Catalog> CatalogCache::find_fresh(Clock::time_point now) {
  const auto counter = m_changes != nullptr ? m_changes->load() : std::nullopt;
  std::lock_guard lock(m_mutex);
  return m_checked.holds(counter, now) ? m_catalog : nullptr;
}

} // namespace ashare::query
