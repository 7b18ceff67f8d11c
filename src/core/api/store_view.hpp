// The store as a DataView (api/data_view) for one request: the catalog and the symbols' histories,
// from memory, reading SQLite only when the request may wait (issue 9). A server's network
// threads answer with Waiting::forbidden, so a request whose catalog must be refreshed or whose
// history must be loaded is Unanswered::wait, and is resumed at that step on a worker thread
// with Waiting::allowed (api/dispatch). Here alone is chosen how a window or a series is read: from a rendered
// history (text already written), a compact one (decoded per request), or the store's rows (a
// one-shot command, or a symbol's first request).
#pragma once

#include "core/api/history_cache.hpp"
#include "core/api/history_filler.hpp"
#include "core/api/data_view.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/connection_pool.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <span>

namespace ashare::api {

// May this step of a request wait on SQLite (a read of the store, a lock)?
enum class Waiting { forbidden, allowed };

class StoreView final : public DataView {
public:
  using Clock = std::chrono::steady_clock;

  // Read through `pool`, remembering in `catalogs` and `histories`, which `filler` fills; `now`
  // is the request's time. `cache_histories` false (a one-shot command): nothing is cached; each
  // answer reads just its rows.
  StoreView(store::ConnectionPool<store::BarStore>& pool,
            query::CatalogCache& catalogs,
            HistoryCache& histories,
            HistoryFiller& filler,
            bool cache_histories,
            Waiting waiting,
            Clock::time_point now)
    : m_pool(pool), m_catalogs(catalogs), m_histories(histories), m_filler(filler),
      m_cache_histories(cache_histories), m_waiting(waiting), m_now(now) {}

  // Return the store's catalog, or nullptr when it must be read from the store and waiting is
  // forbidden. With waiting allowed, the first call opens one read snapshot that every later
  // read of this view shares, so the histories match the catalog's generation. Without cached
  // histories (a one-shot command) the catalog knows only `symbols`, the request's, read for
  // this request alone: a store of a whole market costs no more than one of a few symbols.
  std::shared_ptr<const query::Catalog> catalog(std::span<const domain::Symbol> symbols = {});

  // DataView: catalog(symbols_of(request)), Unanswered::wait for nullptr.
  CatalogRead catalog(const TypedRequest& request) override;

  // Return whether this view reads the store at the generation of `admitted` (the catalog a
  // request was admitted under): its own catalog's, found first (of `symbols`) when it has none,
  // as on a worker resuming a request admitted on a network thread, when the store may have
  // moved on. False when that catalog cannot be had without waiting.
  bool reads_generation_of(const query::Catalog& admitted, std::span<const domain::Symbol> symbols);

  // DataView: from the symbol's cached history, rendered or compact, when it is cached; else its
  // rows, read from the store (query::read_window: the bounded read) when waiting is allowed.
  Read<BarsItem> window(const store::SymbolInfo& info, const query::BarQuery& query) override;

  // DataView: from the series kept with a rendered history (computed once, IndicatorSeriesMemo),
  // a compact history decoded, or the whole series read from the store.
  Read<query::SymbolValues> values(const store::SymbolInfo& info,
                                   const query::IndicatorQuery& query) override;

  // DataView: the store's membership spans (D20), read when waiting is allowed.
  Read<IndexMembers> members(const MembersRequest& request) override;

  // Return whether catalog() found the store out of reach and answered from memory (D15).
  bool store_unreachable() const { return m_unreachable; }

  // Return whether this view may read the store (Waiting::allowed).
  bool may_wait() const { return m_waiting == Waiting::allowed; }

private:
  // Return the whole history of `info`, a symbol of catalog(), in the form it is cached in, or
  // neither when it is not cached: then its rows are read instead, and, when waiting is allowed
  // and it is worth caching (HistoryCache::admit), the filler loads it for the requests to come.
  // A compact history worth rendering (HistoryCache::worth_rendering) is returned as it is, and
  // the filler renders it. No request waits for a history to load (issue 35).
  CachedHistory history(const store::SymbolInfo& info);

  // Return the connection catalog() opened; throws StoreUnavailable when the store was out of
  // reach then (the catalog came from memory).
  store::BarStore& connection();

  store::ConnectionPool<store::BarStore>& m_pool;
  query::CatalogCache& m_catalogs;
  HistoryCache& m_histories;
  HistoryFiller& m_filler;
  bool m_cache_histories;
  Waiting m_waiting;
  Clock::time_point m_now;
  std::shared_ptr<const query::Catalog> m_catalog;
  bool m_unreachable = false; // catalog() found the store out of reach (D15)
  // Declared in this order so that the snapshot ends before its connection goes back.
  std::optional<store::ConnectionPool<store::BarStore>::Lease> m_store;
  std::optional<store::ReadTransaction> m_snapshot;
};

} // namespace ashare::api
