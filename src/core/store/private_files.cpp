#include "core/store/private_files.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace ashare::store {

void create_private_directories(const std::filesystem::path& dir) {
  // The missing directories, innermost first, created outermost first.
  std::vector<std::filesystem::path> missing;
  for (auto at = dir; !at.empty() && !std::filesystem::exists(at); at = at.parent_path()) {
    missing.push_back(at);
    if (at == at.parent_path()) {
      break;
    }
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST) {
      throw std::filesystem::filesystem_error("cannot create directory", *it,
                                              std::error_code(errno, std::generic_category()));
    }
  }
}

void create_private_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
  }
}

} // namespace ashare::store
