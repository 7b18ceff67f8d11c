// One fetch per store at a time (D18): an advisory lock on a file beside a SQLite store, or, for
// a store on a database server, in the runtime directory under a name derived from its locator
// (which serialises fetches from this machine only).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ashare::cli {

class FetchLock {
public:
  // Take the lock of the store at `locator` without waiting; nullopt when another process holds
  // it. Throws std::runtime_error when the lock file cannot be made.
  static std::optional<FetchLock> try_take(const std::string& locator);
  FetchLock(FetchLock&& other) noexcept;
  FetchLock& operator=(FetchLock&&) = delete;
  ~FetchLock();

  // Return the lock file's path (for messages).
  const std::filesystem::path& path() const { return m_path; }

private:
  FetchLock(int fd, std::filesystem::path path) : m_fd(fd), m_path(std::move(path)) {}
  int m_fd;
  std::filesystem::path m_path;
};

} // namespace ashare::cli
