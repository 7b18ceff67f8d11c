#include "core/api/store_view.hpp"

#include "core/query/history.hpp"
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
    if (cached.compact && !m_unreachable
        && m_histories.worth_rendering(info.symbol, info.bar_count)) {
      m_filler.request(info.symbol, info.latest_factor, HistoryForm::rendered, generation);
    }
    return cached;
  }
  if (m_waiting == Waiting::forbidden || m_unreachable) {
    return {};
  }
  m_filler.request(info.symbol, info.latest_factor, m_histories.admit(info.symbol, info.bar_count),
                   generation);
  return {}; // its rows alone this time
}

CatalogRead StoreView::catalog(const TypedRequest& request) {
  auto found = catalog(symbols_of(request));
  if (!found) {
    return Unanswered::wait;
  }
  return found;
}

bool StoreView::reads_generation_of(const query::Catalog& admitted,
                                    std::span<const domain::Symbol> symbols) {
  if (!m_catalog) {
    catalog(symbols);
  }
  return m_catalog && m_catalog->dataset.generation == admitted.dataset.generation;
}

Read<BarsItem> StoreView::window(const store::SymbolInfo& info, const query::BarQuery& query) {
  assert(m_catalog);
  if (m_cache_histories) {
    if (auto history = this->history(info); history.rendered) {
      // The bars and their text stay in the history, which the item keeps (issue 35).
      auto selected = select_bars(*history.rendered, info.symbol, query);
      return BarsItem(std::move(selected.item),
                      WrittenBars{selected.in_place, std::move(selected.json),
                                  std::move(history.rendered)});
    } else if (history.compact) {
      // Decoded and written per request (issue 11, P5), as a read of the store would be.
      return BarsItem(history.compact->read_window(info.symbol, query, info.latest_factor));
    }
  }
  if (!may_wait()) {
    return Unanswered::wait; // to a worker thread, which may read the store
  }
  // A one-shot command, or a symbol's first miss: read just its rows.
  auto& store = connection();
  const auto read = [&](domain::Date from, domain::Date to, domain::SortOrder order,
                        std::int64_t limit) {
    return query::load_series_window(store, m_catalog->aliases, info.symbol, from, to, order, limit);
  };
  return BarsItem(query::read_window(info.symbol, read, query, info.latest_factor));
}

Read<query::SymbolValues> StoreView::values(const store::SymbolInfo& info,
                                            const query::IndicatorQuery& query) {
  assert(m_catalog);
  const auto fields = query::input_fields(query);
  if (m_cache_histories) {
    if (const auto history = this->history(info); history.rendered) {
      query::IndicatorInputs inputs;
      for (const auto field : fields) {
        inputs.push_back(&history.rendered->history.price_series(field));
      }
      const auto lines = history.rendered->indicators.find_or_compute(
        IndicatorSeriesMemo::key_of(query),
        [&] { return query::indicator_lines(inputs, query, info.latest_factor); });
      return query::select_values(info.symbol, inputs.front()->dates, *lines, query);
    } else if (history.compact) {
      const auto bars = history.compact->decode_all();
      std::vector<store::PriceSeries> series;
      for (const auto field : fields) {
        series.push_back(query::price_series_of(bars, field));
      }
      return query::values_from_series(info.symbol, series, query, info.latest_factor);
    }
  }
  if (!may_wait()) {
    return Unanswered::wait; // to a worker thread, which may read the store
  }
  // A one-shot command, or a symbol's first miss: read just its series.
  std::vector<store::PriceSeries> series;
  for (const auto field : fields) {
    series.push_back(query::load_series_prices(connection(), m_catalog->aliases, info.symbol, field));
  }
  return query::values_from_series(info.symbol, series, query, info.latest_factor);
}

Read<IndexMembers> StoreView::members(const MembersRequest& request) {
  assert(m_catalog);
  if (!may_wait()) {
    return Unanswered::wait; // to a worker thread, which may read the store
  }
  auto& market = connection().market();
  const auto& index = request.index.str();
  if (request.history) {
    return IndexMembers{std::nullopt, members::load_member_history(market, index, request.source)};
  }
  assert(request.date); // api::admit set the default
  const auto day = members::answered_day(market, *request.date);
  return IndexMembers{day, members::load_members_on(market, index, day, request.source)};
}

store::BarStore& StoreView::connection() {
  if (!m_store) {
    throw store::StoreUnavailable("the data store cannot be reached");
  }
  return **m_store;
}

} // namespace ashare::api
