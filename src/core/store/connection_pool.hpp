// A pool of store connections (BarStore or KeyStore) for a multi-threaded server: each request
// borrows one for its duration, so statements are prepared once per connection, not per request.
// A connection to a database server that went away is dropped when given back, not lent again.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <concepts>
#include <mutex>
#include <vector>

namespace ashare::store {

template <class Store> class ConnectionPool {
public:
  using Opener = std::function<std::unique_ptr<Store>()>;

  // Create a pool that opens connections with `open` on demand.
  explicit ConnectionPool(Opener open) : m_open(std::move(open)) {}

  // Create a pool that opens connections to the store file at `path` on demand.
  explicit ConnectionPool(const std::filesystem::path& path)
    requires std::constructible_from<Store, const std::filesystem::path&>
    : m_open([path] { return std::make_unique<Store>(path); }) {}

  // Returns its connection to the pool when destroyed.
  class Lease {
  public:
    Lease(ConnectionPool& pool, std::unique_ptr<Store> store)
      : m_pool(&pool), m_store(std::move(store)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) noexcept = default;
    ~Lease() {
      if (m_store) {
        m_pool->give_back(std::move(m_store));
      }
    }
    Store& operator*() { return *m_store; }
    Store* operator->() { return m_store.get(); }

  private:
    ConnectionPool* m_pool;
    std::unique_ptr<Store> m_store;
  };

  // Borrow a connection, opening a new one when none is idle.
  Lease acquire() {
    {
      std::lock_guard lock(m_mutex);
      if (!m_idle.empty()) {
        auto store = std::move(m_idle.back());
        m_idle.pop_back();
        return Lease(*this, std::move(store));
      }
    }
    return Lease(*this, m_open());
  }

private:
  void give_back(std::unique_ptr<Store> store) {
    if constexpr (requires { store->healthy(); }) {
      if (!store->healthy()) {
        return; // the next acquire() connects afresh
      }
    }
    std::lock_guard lock(m_mutex);
    m_idle.push_back(std::move(store));
  }

  Opener m_open;
  std::mutex m_mutex;
  std::vector<std::unique_ptr<Store>> m_idle;
};

} // namespace ashare::store
