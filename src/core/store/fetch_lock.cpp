#include "core/store/fetch_lock.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/connection.hpp"
#include "core/store/private_files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>
#include <utility>

namespace ashare::store {
namespace {

// The advisory lock's key: one number for "ashare fetch" in every database, 0x6173686172650001
// ("ashare" in ASCII, then 1). Advisory locks are per database, so each store has its own.
constexpr const char* k_advisory_key = "7022071011741073409";

std::optional<int> try_flock(const std::filesystem::path& path) {
  // The store may not exist yet (a first fetch makes it): nor may its directory, private as the
  // store's own (store/private_files.hpp).
  if (path.has_parent_path()) {
    create_private_directories(path.parent_path());
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw std::runtime_error("cannot open the fetch lock " + path.string() + ": " + std::strerror(errno));
  }
  // flock: released by the kernel when the process ends, however it ends (kill -9 included).
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  return fd;
}

} // namespace

FetchLock::FetchLock(int fd) : m_fd(fd) {}

FetchLock::FetchLock(std::unique_ptr<postgres::Connection> connection)
    : m_connection(std::move(connection)) {}

std::optional<FetchLock> FetchLock::try_take(const std::string& locator) {
  if (!is_postgres_locator(locator)) {
    const auto fd = try_flock(locator + ".fetch-lock");
    return fd ? std::optional<FetchLock>(FetchLock(*fd)) : std::nullopt;
  }
  // A connection of its own: the store's connections come and go from a pool, and a session
  // lock lives as long as the session that took it.
  auto connection = std::make_unique<postgres::Connection>(locator);
  const auto taken = connection->exec("SELECT pg_try_advisory_lock($1::bigint)", {k_advisory_key});
  if (taken.text(0, 0) != "t") {
    return std::nullopt;
  }
  return FetchLock(std::move(connection));
}

FetchLock::FetchLock(FetchLock&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_connection(std::move(other.m_connection)) {}

FetchLock::~FetchLock() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

} // namespace ashare::store
