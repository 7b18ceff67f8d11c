// One fetch per store at a time (D18): a lock the store holds, so that two runs into one store,
// from this machine or from another, are serialised. Beside a SQLite file it is an flock on
// `FILE.fetch-lock`; on PostgreSQL a session advisory lock (pg_try_advisory_lock) taken on a
// connection of its own and held while the lock lives. The database server keeps it for every
// client whatever URI names the database, and drops it when the holder's connection ends (a
// process killed with -9 included), as the kernel drops an flock.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace ashare::store {

namespace postgres {
class Connection;
}

class FetchLock {
public:
  // Take the fetch lock of the store at `locator` without waiting; nullopt when another run holds
  // it. Throws std::runtime_error when the lock file cannot be made, StoreUnavailable when the
  // database server cannot be reached.
  static std::optional<FetchLock> try_take(const std::string& locator);
  FetchLock(FetchLock&& other) noexcept;
  FetchLock& operator=(FetchLock&&) = delete;
  // Release the lock.
  ~FetchLock();

private:
  explicit FetchLock(int fd);
  explicit FetchLock(std::unique_ptr<postgres::Connection> connection);

  int m_fd = -1;
  std::unique_ptr<postgres::Connection> m_connection; // holds the advisory lock while open
};

} // namespace ashare::store
