#include "core/api/store_view.hpp"

#include "core/store/store_unavailable.hpp"

#include <cassert>

namespace ashare::api {

std::shared_ptr<const query::Catalog> StoreView::catalog(std::span<const domain::Symbol> symbols) {
  if (m_catalog) {
    return m_catalog;
  }
  if (m_waiting == Waiting::forbidden) {
    m_catalog = m_catalogs.find_fresh(m_now);
    return m_catalog;
  }
  try {
    m_store.emplace(m_pool.acquire());
    m_snapshot.emplace(**m_store);
    m_catalog = m_cache_histories ? m_catalogs.current(**m_store, m_now)
                                  : query::load_catalog(**m_store, symbols);
  } catch (const store::StoreUnavailable&) {
    // D15: the database server is away. A server still answers what its memory holds (an
    // unmetered key's request for a cached history); anything that needs the store is a 503.
    m_snapshot.reset();
    m_store.reset();
    m_catalog = m_cache_histories ? m_catalogs.remembered() : nullptr;
    m_unreachable = true;
    if (!m_catalog) {
      throw;
    }
  }
  return m_catalog;
}

CachedHistory StoreView::history(const store::SymbolInfo& info) {
  assert(m_catalog);
  const std::int64_t generation = m_catalog->dataset.generation;
  if (auto cached = m_histories.find(info.symbol, generation)) {
    if (!cached.compact || !m_histories.worth_rendering(info.symbol, info.bar_count)
        || m_unreachable) {
      return cached;
    }
    if (m_waiting == Waiting::forbidden) {
      return {}; // to a worker thread, which renders it
    }
    return {m_histories.find_or_load(connection(), info.symbol, info.latest_factor, generation),
            nullptr};
  }
  if (m_waiting == Waiting::forbidden) {
    return {};
  }
  switch (m_histories.admit(info.symbol, info.bar_count)) {
  case HistoryForm::rendered:
    return {m_histories.find_or_load(connection(), info.symbol, info.latest_factor, generation),
            nullptr};
  case HistoryForm::compact:
    return {nullptr, m_histories.find_or_load_compact(connection(), info.symbol, generation)};
  case HistoryForm::none:
    break;
  }
  return {}; // not worth loading whole: its rows alone this time
}

std::optional<query::SymbolBars> StoreView::read_window(const store::SymbolInfo& info,
                                                        const query::BarQuery& query) {
  assert(m_catalog);
  if (m_waiting == Waiting::forbidden) {
    return std::nullopt;
  }
  auto& store = connection();
  return query::read_window(
    info.symbol,
    [&](domain::Date from, domain::Date to, domain::SortOrder order, std::int64_t limit) {
      return store.load_bars(info.symbol, from, to, order, limit);
    },
    query, info.latest_factor);
}

std::optional<store::PriceSeries> StoreView::load_price_series(const store::SymbolInfo& info,
                                                               store::PriceField field) {
  assert(m_catalog);
  if (m_waiting == Waiting::forbidden) {
    return std::nullopt;
  }
  return connection().load_price_series(info.symbol, field);
}

store::BarStore& StoreView::connection() {
  if (!m_store) {
    throw store::StoreUnavailable("the data store cannot be reached");
  }
  return **m_store;
}

} // namespace ashare::api
