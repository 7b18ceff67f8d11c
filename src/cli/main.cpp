// ashare: the command-line front end. Builds the CLI11 parser from the subcommand table, resolves
// the configuration once, runs the chosen command, and is the one place that catches exceptions.
#include "cli/command.hpp"
#include "cli/config.hpp"
#include "core/error.hpp"
#include "core/store/schema.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <exception>
#include <iostream>
#include <map>

namespace {

using namespace ashare::cli;

constexpr std::array k_commands{
  CommandSpec{"import", "Load canonical CSV files of daily bars into the store", setup_import},
  CommandSpec{"keys", "Create, list, revoke and credit API keys", setup_keys},
  CommandSpec{"serve", "Serve the v1 HTTP/JSON API", setup_serve},
};

std::string version_text() {
  using ashare::store::StoreKind;
  return std::string("ashare ") + ASHARE_VERSION + " (store schema "
         + std::to_string(ashare::store::current_schema_version(StoreKind::data)) + ", key store schema "
         + std::to_string(ashare::store::current_schema_version(StoreKind::keys)) + ")";
}

constexpr const char* k_footer =
  "Environment: ASHARE_DB, ASHARE_KEYS_DB, XDG_DATA_HOME.\n"
  "Exit status: 0 success, 1 data or API error, 2 usage error.\n"
  "See ashare(1) for details.";

int run(int argc, char** argv) {
  CLI::App app{"ashare: end-of-day China A-share data: a local store, a CLI and the v1 HTTP API"};
  app.name("ashare");
  app.footer(k_footer);
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.fallthrough(); // global options are accepted after the subcommand too
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return "ashare: error: " + std::string(error.what()) + "\nRun with --help for more information.\n";
  });

  GlobalFlags flags;
  app.add_option("--db", flags.db, "Data store (env ASHARE_DB; default $XDG_DATA_HOME/ashare/ashare.db)")
    ->type_name("PATH");
  app.add_option("--keys-db", flags.keys_db,
                 "Key store (env ASHARE_KEYS_DB; default: beside the data store, NAME-keys.db)")
    ->type_name("PATH");

  std::map<CLI::App*, Action> actions;
  for (const auto& command : k_commands) {
    CLI::App* sub = app.add_subcommand(std::string(command.name), std::string(command.summary));
    actions.emplace(sub, command.setup(*sub));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);
    // CLI11 exits with its own codes (100+) on parse errors; ours is 2 (--help, --version: 0).
    return status == 0 ? k_exit_ok : k_exit_usage;
  }
  const Config config = resolve_config(flags, process_environment());
  for (auto* sub : app.get_subcommands()) {
    return actions.at(sub)(config);
  }
  return k_exit_usage;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "ashare: error: " << error.what() << "\n";
    return k_exit_error;
  }
}
