// ashare copy [--from STORE] --to STORE: move a whole store to another backend (issue 14), e.g.
// from the SQLite file of one workstation to the PostgreSQL database of a team's replicas: every
// bar, symbol and source exactly (with the calendar, listings, suspensions, absence marks and
// the fetch ledger, D19), then every key with its balance, into stores that hold none.
#include "cli/commands/command.hpp"
#include "cli/output/progress.hpp"
#include "cli/output/table.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/key_store.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace ashare::cli {
namespace {

struct CopyArgs {
  std::optional<std::string> from;
  std::string to;
};

// Return the key store that goes with the data store at `locator`: the same database on a
// server, the file beside it (NAME-keys.db) otherwise, as the configuration's defaults are.
std::string keys_of(const std::string& locator) {
  return store::is_postgres_locator(locator) ? locator : default_keys_path(locator).string();
}

int run_copy(const CopyArgs& args, const Config& config) {
  const std::string from = args.from.value_or(config.db.string());
  const std::string from_keys = args.from ? keys_of(from) : config.keys_db.string();
  const std::string to_keys = keys_of(args.to);
  const std::string shown_from = store::redacted_locator(from);
  const std::string shown_to = store::redacted_locator(args.to);
  if (from == args.to) {
    return fail("--from and --to are the same store (" + shown_to + ")", k_exit_usage);
  }
  // Opening a file that does not exist would create an empty store and copy nothing from it.
  if (!store::is_postgres_locator(from) && !std::filesystem::exists(from)) {
    return fail("no store at " + shown_from);
  }
  const auto source = store::open_bar_store(from);
  const auto destination = store::open_bar_store(args.to);
  const auto source_keys = store::open_key_store(from_keys);
  const auto destination_keys = store::open_key_store(to_keys);
  // Both destinations checked before either is written: a copy refused halfway would leave bars
  // without their keys.
  if (const auto keys = destination_keys->load_keys(); !keys.empty()) {
    return fail("the destination already holds " + std::to_string(keys.size())
                + (keys.size() == 1 ? " key" : " keys")
                + ": copy into an empty store, so that ids and balances stay exact");
  }
  ProgressBar bar("copy");
  const auto bars = store::copy_bars(*source, *destination, [&](std::int64_t done, std::int64_t total) {
    bar.show(done, total, with_thousands(std::to_string(done)) + " bars");
  });
  bar.finish();
  if (!bars) {
    return fail(bars.error().message);
  }
  const auto keys = store::copy_keys(*source_keys, *destination_keys);
  if (!keys) {
    return fail(keys.error().message);
  }
  std::cout << "copied " << bars->symbols << (bars->symbols == 1 ? " symbol" : " symbols") << " ("
            << with_thousands(std::to_string(bars->bars)) << (bars->bars == 1 ? " bar" : " bars")
            << ") and " << keys->keys << (keys->keys == 1 ? " key" : " keys") << " ("
            << keys->metered << " metered, " << keys->revoked << " revoked) from " << shown_from
            << " to " << shown_to << "\n";
  return k_exit_ok;
}

} // namespace

Action setup_copy(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<CopyArgs>();
  command
    .add_option("--from", args->from,
                "Store to copy: a SQLite file or a postgresql:// URI (default: --db)")
    ->type_name("STORE");
  command
    .add_option("--to", args->to,
                "Store to copy into, holding no bars and no keys: a SQLite file or a "
                "postgresql:// URI")
    ->required()
    ->type_name("STORE");
  return [args](const Config& config) { return run_copy(*args, config); };
}

} // namespace ashare::cli
