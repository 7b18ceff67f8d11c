// What the API handlers work with: the store connections, what the server keeps in memory between
// requests (catalog, histories, keys) with the change counters that say when it went stale, and
// the random source for request ids. Built once by `ashare serve` (or by a test) and shared by
// all threads.
#pragma once

#include "core/api/history_cache.hpp"
#include "core/api/history_filler.hpp"
#include "core/api/key_cache.hpp"
#include "core/auth/api_key.hpp"
#include "core/auth/rate_limiter.hpp"
#include "core/query/catalog.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/change_counter.hpp"
#include "core/store/change_watch.hpp"
#include "core/store/connection_pool.hpp"
#include "core/store/key_store.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string_view>

namespace ashare::api {

struct Services {
  // Open pools over the data store at `data_locator` and the key store at `keys_locator` (each a
  // file path or a postgresql:// URI, store/locator.hpp), and map their change counters (a store
  // on a database server has one in memory, which hears of changes through the server).
  Services(const std::string& data_locator, const std::string& keys_locator)
    : bars([data_locator] { return store::open_bar_store(data_locator); }),
      keys([keys_locator] { return store::open_key_store(keys_locator); }),
      data_changes(store::open_change_counter(data_locator)),
      keys_changes(store::open_change_counter(keys_locator)),
      m_data_locator(data_locator), m_keys_locator(keys_locator) {}

  // Keep the caches current across hosts for the stores on a database server: a thread per store
  // hears its changes (store/change_watch.hpp). A server calls it; a one-shot command has
  // nothing to keep current. On a store file there is nothing to do: its change counter is
  // shared memory.
  void watch_changes() {
    if (!m_data_watch) {
      m_data_watch = store::watch_changes(m_data_locator, store::WatchedStore::bars, data_changes);
    }
    if (!m_keys_watch) {
      m_keys_watch = store::watch_changes(m_keys_locator, store::WatchedStore::keys, keys_changes);
    }
  }

  // Return whether the keys, or the bars, are on a database server, which can be unreachable (D15).
  bool keys_on_server() const { return store::is_on_server(m_keys_locator); }
  bool data_on_server() const { return store::is_on_server(m_data_locator); }

  store::ConnectionPool<store::BarStore> bars;
  store::ConnectionPool<store::KeyStore> keys;
  store::ChangeCounter data_changes; // bumped by imports and removals
  store::ChangeCounter keys_changes; // bumped when a key is created or revoked
  query::CatalogCache catalog{&data_changes};
  KeyCache key_cache{&keys_changes};
  // Whole histories with their bars' JSON and series: about 650 bytes a bar, so 256 MiB hold
  // about 400,000 bars.
  HistoryCache histories{256u << 20};
  // Loads the histories requests ask for into `histories`, off their path (issue 35); stopped
  // before `histories` and `bars` go (declared after them).
  HistoryFiller filler{bars, histories};
  // Whether requests read through `histories` (a server, which answers many) or read just the
  // rows each needs (a one-shot command, which answers one: issue 11's bounded read).
  bool cache_histories = true;
  auth::BufferedSystemRandom random; // for request ids; thread-safe
  auth::RateLimiter rate_limiter;    // off unless `serve --rate-limit` (D14)
  // Receives the detail of an unexpected failure answered with 500 (D10: never sent to clients).
  std::function<void(std::string_view detail)> log_error = [](std::string_view) {};
  // Set by a server that is stopping (SIGTERM): /healthz answers 503 "unavailable" (D15).
  std::atomic<bool> draining{false};

private:
  std::string m_data_locator;
  std::string m_keys_locator;
  // Stopped first: they bump the counters above.
  std::unique_ptr<store::ChangeWatch> m_data_watch;
  std::unique_ptr<store::ChangeWatch> m_keys_watch;
};

} // namespace ashare::api
