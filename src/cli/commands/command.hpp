// The subcommand table's row type: each commands/<name>.cpp defines one setup function that
// declares its options on a CLI11 subcommand and returns the action to run once parsing is done
// (the seven indicator commands share one, commands/indicators.hpp).
#pragma once

#include "cli/config.hpp"
#include "cli/output/report.hpp"

#include <functional>
#include <string_view>

namespace CLI {
class App;
}

namespace ashare::cli {

using Action = std::function<int(const Config& config)>;

// Whether a command runs in `ashare-net`, the program with the network code
// (cli/net/hand_over.hpp), from its start. A remote-mode query (`never` here) moves there only when
// the cache cannot answer it, so an answer from the cache starts as fast as a local one (P6).
enum class Network {
  never,
  always,         // fetch, verify, serve, sync
  in_remote_mode, // info: asks the remote's /healthz unless --offline
};

// `setup` declares the options of `command`; settings that the config file can also give
// (--format, --plan) are written to `flags`, so that resolve_config() sees them.
struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  Action (*setup)(CLI::App& command, GlobalFlags& flags);
  Network network = Network::never;
};

Action setup_bars(CLI::App& command, GlobalFlags& flags);
Action setup_calendar(CLI::App& command, GlobalFlags& flags);
Action setup_chart(CLI::App& command, GlobalFlags& flags);
Action setup_copy(CLI::App& command, GlobalFlags& flags);
Action setup_export(CLI::App& command, GlobalFlags& flags);
Action setup_fetch(CLI::App& command, GlobalFlags& flags);
Action setup_gaps(CLI::App& command, GlobalFlags& flags);
Action setup_verify(CLI::App& command, GlobalFlags& flags);
Action setup_import(CLI::App& command, GlobalFlags& flags);
Action setup_info(CLI::App& command, GlobalFlags& flags);
Action setup_members(CLI::App& command, GlobalFlags& flags);
Action setup_remove(CLI::App& command, GlobalFlags& flags);
Action setup_symbols(CLI::App& command, GlobalFlags& flags);
Action setup_sync(CLI::App& command, GlobalFlags& flags);
Action setup_keys(CLI::App& command, GlobalFlags& flags);
Action setup_serve(CLI::App& command, GlobalFlags& flags);

} // namespace ashare::cli
