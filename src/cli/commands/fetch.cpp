// ashare fetch PROVIDER: keep the local store current from the market's sources (D18, D19). Each
// provider is a subcommand of its own file (commands/fetch_providers.hpp); exactly one is given.
#include "cli/commands/fetch_providers.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace ashare::cli {

Action setup_fetch(CLI::App& command, GlobalFlags&) {
  command.require_subcommand(1);
  auto action = std::make_shared<Action>();
  add_fetch_tushare(command, *action);
  add_fetch_tdx(command, *action);
  return [action](const Config& config) { return (*action)(config); };
}

} // namespace ashare::cli
