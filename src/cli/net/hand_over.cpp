// `ashare`'s side of the network module (cli/net/module.hpp, cli/net/hand_over.hpp): it has no
// network code, so the first need of it moves the command to `ashare-net`. exec keeps the process
// (its id, which a script or a test may signal), its standard streams and its environment.
#include "cli/net/hand_over.hpp"

#include "cli/net/module.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace ashare::cli::net {
namespace {

constexpr const char* k_program = "ashare-net";

// This process's own arguments, as the kernel keeps them: main() need not pass them down to
// wherever the network is first needed.
std::vector<std::string> own_arguments() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> arguments;
  for (std::string argument; std::getline(file, argument, '\0');) {
    arguments.push_back(argument);
  }
  return arguments;
}

// Beside the executable (the build tree), then where `cmake --install` puts it.
std::vector<std::filesystem::path> candidates() {
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  const auto dir = error ? std::filesystem::path(".") : executable.parent_path();
  return {dir / k_program, dir / ".." / ASHARE_INSTALL_LIBEXECDIR / "ashare" / k_program};
}

[[noreturn]] void run_network_program() {
  auto arguments = own_arguments();
  std::vector<char*> argv;
  for (auto& argument : arguments) {
    argv.push_back(argument.data());
  }
  argv.push_back(nullptr);
  std::string tried;
  for (const auto& path : candidates()) {
    ::execv(path.c_str(), argv.data());
    tried += "\n  " + path.lexically_normal().string() + ": "
             + (errno == ENOENT ? std::string("not found") : std::strerror(errno));
  }
  throw std::runtime_error(std::string("cannot run the network program ") + k_program
                           + " (needed for remote mode, fetch and serve):" + tried);
}

} // namespace

void hand_over() {
  run_network_program();
}

const Module& module() {
  run_network_program();
}

} // namespace ashare::cli::net
