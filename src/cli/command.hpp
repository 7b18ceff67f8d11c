// The subcommand table's row type: each cmd_<name>.cpp defines one setup function that declares
// its options on a CLI11 subcommand and returns the action to run once parsing is done.
#pragma once

#include "cli/config.hpp"

#include <functional>
#include <string_view>

namespace CLI {
class App;
}

namespace ashare::cli {

// Exit statuses (documented in --help, the man page and README).
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_error = 1; // data or API error
inline constexpr int k_exit_usage = 2; // command-line usage error

using Action = std::function<int(const Config& config)>;

struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  Action (*setup)(CLI::App& command);
};

Action setup_import(CLI::App& command);
Action setup_keys(CLI::App& command);
Action setup_serve(CLI::App& command);

} // namespace ashare::cli
