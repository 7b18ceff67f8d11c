#include "cli/fetch/fetch_lock.hpp"

#include "core/fnv1a.hpp"
#include "core/store/locator.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>
#include <utility>

namespace ashare::cli {
namespace {

std::filesystem::path lock_path(const std::string& locator) {
  if (!store::is_postgres_locator(locator)) {
    return std::filesystem::path(locator + ".fetch-lock");
  }
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  const std::filesystem::path dir = runtime != nullptr && *runtime != '\0' ? runtime : "/tmp";
  return dir / ("ashare-fetch-" + std::to_string(Fnv1a().add_bytes(locator).value()) + ".lock");
}

} // namespace

std::optional<FetchLock> FetchLock::try_take(const std::string& locator) {
  auto path = lock_path(locator);
  std::error_code ignored;
  std::filesystem::create_directories(path.parent_path(), ignored);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw std::runtime_error("cannot open the fetch lock " + path.string() + ": "
                             + std::strerror(errno));
  }
  // flock: released by the kernel when the process ends, however it ends (kill -9 included).
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  return FetchLock(fd, std::move(path));
}

FetchLock::FetchLock(FetchLock&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path)) {}

FetchLock::~FetchLock() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

} // namespace ashare::cli
