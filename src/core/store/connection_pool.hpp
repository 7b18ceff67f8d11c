// A pool of store connections (BarStore or KeyStore) for a multi-threaded server: each request
// borrows one for its duration, so statements are prepared once per connection, not per request.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

namespace ashare::store {

template <class Store> class ConnectionPool {
public:
  // Create a pool that opens connections to `path` on demand.
  explicit ConnectionPool(std::filesystem::path path) : m_path(std::move(path)) {}

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
    return Lease(*this, std::make_unique<Store>(m_path));
  }

  const std::filesystem::path& path() const { return m_path; }

private:
  void give_back(std::unique_ptr<Store> store) {
    std::lock_guard lock(m_mutex);
    m_idle.push_back(std::move(store));
  }

  std::filesystem::path m_path;
  std::mutex m_mutex;
  std::vector<std::unique_ptr<Store>> m_idle;
};

} // namespace ashare::store
