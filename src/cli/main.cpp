// ashare: the command-line front end. Builds the CLI11 parser from the subcommand table, resolves
// the configuration once, runs the chosen command, and is the one place that catches exceptions.
#include "cli/commands/command.hpp"
#include "cli/commands/indicators.hpp"
#include "cli/config.hpp"
#include "cli/commands/query_run.hpp"
#include "cli/net/hand_over.hpp"
#include "core/error.hpp"
#include "core/remote/calls.hpp"
#include "core/store/schema.hpp"
#include "core/store/store_unavailable.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string_view>

namespace {

using namespace ashare::cli;
using ashare::query::Indicator;

// The indicator commands' rows come from their own table (commands/indicators.hpp).
constexpr std::array k_commands{
  CommandSpec{"bars", "Print daily bars of symbols over a window", setup_bars},
  indicator_command(Indicator::ema),
  indicator_command(Indicator::rsi),
  indicator_command(Indicator::sma),
  indicator_command(Indicator::macd),
  indicator_command(Indicator::bbands),
  indicator_command(Indicator::atr),
  indicator_command(Indicator::kdj),
  CommandSpec{"chart", "Draw a candlestick chart in the terminal or as SVG", setup_chart},
  CommandSpec{"symbols", "List the symbols of the local store", setup_symbols},
  CommandSpec{"members", "Print an index's members on a day, or every span (D20)", setup_members},
  CommandSpec{"sync", "Pull bars from the remote into the cache", setup_sync, Network::always},
  CommandSpec{"info", "Show the store (or remote) and how current its data is", setup_info,
              Network::in_remote_mode},
  CommandSpec{"calendar", "Print the store's trading calendar (open days) over a range", setup_calendar},
  CommandSpec{"import", "Load canonical CSV files of daily bars into the store", setup_import},
  CommandSpec{"fetch", "Bring the store up to the last completed trading day from a source", setup_fetch,
              Network::always},
  CommandSpec{"gaps", "List every missing bar of the store and why it is missing", setup_gaps},
  CommandSpec{"verify", "Compare the stored bars with what a provider answers for the same days",
              setup_verify, Network::always},
  CommandSpec{"remove", "Delete a symbol's bars, or a window of them, from the store", setup_remove},
  CommandSpec{"keys", "Create, list, revoke and credit API keys", setup_keys},
  CommandSpec{"copy", "Copy the whole store (bars and keys) to another backend", setup_copy},
  CommandSpec{"export", "Write the store's bars as Microsoft qlib data files", setup_export},
  CommandSpec{"serve", "Serve the v1 HTTP/JSON API", setup_serve, Network::always},
};

std::string version_text() {
  using ashare::store::StoreKind;
  return std::string("ashare ") + ASHARE_VERSION + " (store schema "
         + std::to_string(ashare::store::current_schema_version(StoreKind::data)) + ", key store schema "
         + std::to_string(ashare::store::current_schema_version(StoreKind::keys)) + ")";
}

// Return the row of k_commands that `argv` names, when every token before the command's name is
// a global option of `app` (with its value, if it takes one); nullopt for anything else (no
// command, --help or --version, an unknown option), which CLI11 then parses with every command.
std::optional<CommandSpec> named_command(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view token = argv[i];
    if (!token.starts_with("--") || token == "--help" || token == "--version") {
      const auto row = std::ranges::find(k_commands, token, &CommandSpec::name);
      return row == k_commands.end() ? std::nullopt : std::optional(*row);
    }
    const auto name = token.substr(0, token.find('='));
    const CLI::Option* option = app.get_option_no_throw(std::string(name));
    if (option == nullptr) {
      return std::nullopt;
    }
    if (name.size() == token.size() && option->get_items_expected_max() > 0) {
      ++i; // the option's value
      if (i == argc || std::string_view(argv[i]).starts_with('-')) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

constexpr const char* k_footer =
  "Environment: ASHARE_DB, ASHARE_KEYS_DB, ASHARE_CACHE_DB, ASHARE_BASE_URL, ASHARE_API_KEY,\n"
  "ASHARE_FORMAT, ASHARE_PLAN, XDG_DATA_HOME, XDG_CONFIG_HOME, NO_COLOR, http_proxy,\n"
  "https_proxy, no_proxy.\n"
  "Exit status: 0 success, 1 data or API error, 2 usage error, 3 network error,\n"
  "4 authentication, credits, plan or request rate refused (HTTP 401, 402, 403, 429).\n"
  "See ashare(1) for details.";

// What the global options write: the settings the config file can also give, and remote mode's.
struct GlobalOptions {
  GlobalFlags flags;
  RemoteOptions remote;
  double timeout_s = 30;
};

// Set what `app` says of itself (name, footer, --version) and how it parses: one subcommand,
// global options after it too, usage errors in our words.
void describe_app(CLI::App& app) {
  app.name("ashare");
  app.footer(k_footer);
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.fallthrough(); // global options are accepted after the subcommand too
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return error_line(error.what()) + "Run with --help for more information.\n";
  });
}

// Declare on `app` the options every command takes, writing `options`.
void add_global_options(CLI::App& app, GlobalOptions& options) {
  auto& flags = options.flags;
  auto& remote = options.remote;
  app.add_option("--db", flags.db, "Data store (env ASHARE_DB; default $XDG_DATA_HOME/ashare/ashare.db)")
    ->type_name("PATH");
  app.add_option("--keys-db", flags.keys_db,
                 "Key store (env ASHARE_KEYS_DB; default: beside the data store, NAME-keys.db)")
    ->type_name("PATH");
  app.add_option("--cache-db", flags.cache_db,
                 "Remote-mode cache (env ASHARE_CACHE_DB; default: beside the data store, "
                 "NAME-cache.db)")
    ->type_name("PATH");
  app.add_option("--base-url", flags.base_url,
                 "Remote mode: a server implementing the v1 API (env ASHARE_BASE_URL)")
    ->type_name("URL");
  app.add_option("--api-key", flags.api_key, "API key for the remote (env ASHARE_API_KEY)")
    ->type_name("KEY");
  app.add_option("--ca-file", remote.ca_file, "CA certificates (PEM) to trust for an HTTPS remote")
    ->type_name("FILE");
  app.add_option("--timeout", options.timeout_s, "Remote timeout in seconds (default 30)")
    ->check(CLI::Range(0.1, 3600.0))
    ->type_name("SECONDS");
  app.add_option("--retries", remote.retries,
                 "Retries, with doubling backoff, on connection errors and 5xx (default 3)")
    ->check(CLI::Range(0, 10))
    ->type_name("N");
  app.add_flag("--offline", remote.offline,
               "Remote mode: answer from the cache only; fail (exit 1) when it cannot");
  app.add_flag("--refresh", remote.refresh,
               "Remote mode: ask the remote's as_of now and refetch what changed");
  app.add_option("--config", flags.config,
                 "Config file (default $XDG_CONFIG_HOME/ashare/config.toml)")
    ->type_name("FILE");
}

// A command's action, and whether it needs the network from its start.
struct Chosen {
  Network network;
  Action action;
};

// Add the commands of k_commands to `app`, their options writing `flags`, and return each one's
// action. Registering a subcommand and its options allocates (about a millisecond for all of
// them, most of it page faults): a command line `argv` that names its command registers that one
// alone.
std::map<CLI::App*, Chosen>
add_commands(CLI::App& app, GlobalFlags& flags, int argc, char** argv) {
  std::map<CLI::App*, Chosen> actions;
  const auto named = named_command(app, argc, argv);
  for (const auto& command : k_commands) {
    if (named && command.name != named->name) {
      continue;
    }
    CLI::App* sub = app.add_subcommand(std::string(command.name), std::string(command.summary));
    actions.emplace(sub, Chosen{command.network, command.setup(*sub, flags)});
  }
  return actions;
}

// Return the configuration that `options`, the environment and the config file give, or the
// usage error of a config file that is missing or wrong.
ashare::Result<Config> load_config(const GlobalOptions& options) {
  const auto& flags = options.flags;
  const auto environment = process_environment();
  if (flags.config && !std::filesystem::exists(*flags.config)) {
    return ashare::make_error(ashare::ErrorCode::invalid_input,
                              "--config \"" + *flags.config + "\": no such file");
  }
  const auto file = load_config_file(config_file_path(flags, environment));
  if (!file) {
    return file.error();
  }
  Config config = resolve_config(flags, environment, *file);
  config.remote = options.remote;
  config.remote.timeout =
    std::chrono::milliseconds(static_cast<std::int64_t>(options.timeout_s * 1000));
  return config;
}

int run(int argc, char** argv) {
  CLI::App app{"ashare: end-of-day China A-share data: a local store, a CLI and the v1 HTTP API"};
  describe_app(app);
  GlobalOptions options;
  add_global_options(app, options);
  const auto actions = add_commands(app, options.flags, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);
    // CLI11 exits with its own codes (100+) on parse errors; ours is 2 (--help, --version: 0).
    return status == 0 ? k_exit_ok : k_exit_usage;
  }
  const auto config = load_config(options);
  if (!config) {
    return fail(config.error().message, k_exit_usage);
  }
  for (auto* sub : app.get_subcommands()) {
    const auto& [network, action] = actions.at(sub);
    const bool remote = config->base_url && !config->remote.offline;
    if (network == Network::always || (network == Network::in_remote_mode && remote)) {
      ashare::cli::net::hand_over(); // returns in ashare-net only
    }
    return action(*config);
  }
  return k_exit_usage;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ashare::remote::Unreachable& error) {
    return fail(error.what(), k_exit_network);
  } catch (const ashare::store::StoreUnavailable& error) {
    return fail(error.what(), k_exit_network); // D15: a database server that may come back
  } catch (const std::exception& error) {
    return fail(error.what());
  }
}
