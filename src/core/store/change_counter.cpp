#include "core/store/change_counter.hpp"

#include "core/store/private_files.hpp"

#include <atomic>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ashare::store {

std::filesystem::path ChangeCounter::path_for(const std::filesystem::path& store_path) {
  return std::filesystem::path(store_path.string() + "-changes");
}

ChangeCounter::ChangeCounter(const std::filesystem::path& store_path) {
  const auto path = path_for(store_path);
  if (path.has_parent_path()) {
    try {
      create_private_directories(path.parent_path()); // as open_database creates it
    } catch (const std::filesystem::filesystem_error&) {
      // open() below fails and the counter stays unavailable, which load() reports.
    }
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  m_writable = fd >= 0;
  if (fd < 0) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); // a reader without write access
  }
  if (fd < 0) {
    return;
  }
  struct stat info {};
  const bool sized = ::fstat(fd, &info) == 0
                     && (info.st_size >= static_cast<off_t>(sizeof(std::uint64_t))
                         || (m_writable && ::ftruncate(fd, sizeof(std::uint64_t)) == 0));
  if (sized) {
    void* mapping = ::mmap(nullptr, sizeof(std::uint64_t),
                           m_writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
    if (mapping != MAP_FAILED) {
      m_word = static_cast<std::uint64_t*>(mapping);
      m_mapped = true;
    }
  }
  ::close(fd); // the mapping keeps the file
}

ChangeCounter::ChangeCounter() : m_word(&m_local), m_writable(true) {}

ChangeCounter::~ChangeCounter() {
  if (m_mapped) {
    ::munmap(m_word, sizeof(std::uint64_t));
  }
}

std::optional<std::uint64_t> ChangeCounter::load() const {
  if (m_word == nullptr) {
    return std::nullopt;
  }
  return std::atomic_ref<std::uint64_t>(*m_word).load(std::memory_order_acquire);
}

void ChangeCounter::bump() {
  if (m_word != nullptr && m_writable) {
    std::atomic_ref<std::uint64_t>(*m_word).fetch_add(1, std::memory_order_acq_rel);
  }
}

} // namespace ashare::store
