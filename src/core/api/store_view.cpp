#include "core/api/store_view.hpp"

#include <cassert>

namespace ashare::api {

std::shared_ptr<const query::Catalog> StoreView::catalog() {
  if (m_catalog) {
    return m_catalog;
  }
  if (m_waiting == Waiting::forbidden) {
    m_catalog = m_catalogs.find_fresh(m_now);
    return m_catalog;
  }
  m_store.emplace(m_pool.acquire());
  m_snapshot.emplace(**m_store);
  m_catalog = m_catalogs.current(**m_store, m_now);
  return m_catalog;
}

std::shared_ptr<const RenderedHistory> StoreView::history(const store::SymbolInfo& info) {
  assert(m_catalog);
  const std::int64_t generation = m_catalog->dataset.generation;
  if (m_waiting == Waiting::forbidden) {
    return m_histories.find(info.symbol, generation);
  }
  return m_histories.find_or_load(**m_store, info.symbol, info.latest_factor, generation);
}

} // namespace ashare::api
