// Loading ashare-net.so (cli/net/module.hpp): with dlopen, once per process, on first use.
#include "cli/net/module.hpp"

#include <dlfcn.h>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace ashare::cli::net {
namespace {

constexpr const char* k_module_file = "ashare-net.so";
constexpr const char* k_entry = "ashare_net_module";

// Beside the executable (the build tree), then where `cmake --install` puts it.
std::vector<std::filesystem::path> candidates() {
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  const auto dir = error ? std::filesystem::path(".") : executable.parent_path();
  return {dir / k_module_file, dir / ".." / ASHARE_INSTALL_LIBDIR / "ashare" / k_module_file};
}

const Module* load() {
  std::string tried;
  for (const auto& path : candidates()) {
    if (!std::filesystem::exists(path)) {
      tried += "\n  " + path.string() + ": not found";
      continue;
    }
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      tried += "\n  " + path.string() + ": " + dlerror();
      continue;
    }
    using Entry = const Module* (*)() noexcept;
    const auto entry = reinterpret_cast<Entry>(dlsym(handle, k_entry));
    if (entry == nullptr) {
      tried += "\n  " + path.string() + ": no " + k_entry;
      continue;
    }
    const Module* found = entry();
    if (std::string(found->version) != ASHARE_VERSION || found->abi != k_module_abi) {
      tried += "\n  " + path.string() + ": version " + found->version + " (table "
               + std::to_string(found->abi) + "), not " + ASHARE_VERSION + " (table "
               + std::to_string(k_module_abi) + ")";
      continue;
    }
    return found; // the handle stays open for the life of the process
  }
  throw std::runtime_error("cannot load the network module " + std::string(k_module_file)
                           + " (needed for remote mode and serve):" + tried);
}

} // namespace

const Module& module() {
  // Loaded once: a shared library is process-wide whatever we do.
  static const Module* loaded = load();
  return *loaded;
}

} // namespace ashare::cli::net
