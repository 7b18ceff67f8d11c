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
  // D19: both codes of a pair answer the joined series when either has bars.
  catalog->aliases = load_aliases(store);
  const auto stored = [&catalog](const std::string& symbol) -> std::optional<store::SymbolInfo> {
    const auto it = catalog->symbols.find(symbol);
    return it == catalog->symbols.end() ? std::nullopt : std::optional(it->second);
  };
  for (const auto& pair : catalog->aliases.pairs()) {
    const auto old_info = stored(pair.old_symbol);
    const auto new_info = stored(pair.new_symbol);
    if (!old_info && !new_info) {
      continue;
    }
    auto as_old = series_info(store, catalog->aliases, pair.old_symbol, old_info, new_info);
    auto as_new = series_info(store, catalog->aliases, pair.new_symbol, new_info, old_info);
    catalog->symbols.insert_or_assign(pair.old_symbol, std::move(*as_old));
    catalog->symbols.insert_or_assign(pair.new_symbol, std::move(*as_new));
  }
  return catalog;
}

std::shared_ptr<const Catalog> load_catalog(store::BarStore& store,
                                            std::span<const domain::Symbol> symbols) {
  auto catalog = std::make_shared<Catalog>();
  catalog->dataset = store.load_dataset_info();
  catalog->aliases = load_aliases(store, symbols);
  for (const auto& symbol : symbols) {
    auto own = store.find_symbol(symbol.str());
    const auto partner_code = catalog->aliases.partner(symbol.str());
    const auto partner = partner_code ? store.find_symbol(*partner_code) : std::nullopt;
    if (auto info = series_info(store, catalog->aliases, symbol.str(), own, partner)) {
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
