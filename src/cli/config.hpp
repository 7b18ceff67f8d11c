// The configuration of one run: where the stores are. Resolved in one function, flag > environment
// > default, because CLI11 2.1's own config support cannot give that order.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ashare::cli {

// The global options as given on the command line (empty when absent).
struct GlobalFlags {
  std::optional<std::string> db;
  std::optional<std::string> keys_db;
};

struct Config {
  std::filesystem::path db;      // the data store
  std::filesystem::path keys_db; // the key store
};

// Looks up an environment variable; nullopt when unset.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;

// Return the process environment as an Environment.
Environment process_environment();

// Resolve the configuration: `db` from --db, else ASHARE_DB, else
// $XDG_DATA_HOME/ashare/ashare.db (XDG_DATA_HOME defaulting to ~/.local/share); `keys_db` from
// --keys-db, else ASHARE_KEYS_DB, else beside `db` with "-keys" added to its stem.
Config resolve_config(const GlobalFlags& flags, const Environment& environment);

// Return the key store path that goes with data store `db` (ashare.db -> ashare-keys.db).
std::filesystem::path default_keys_path(const std::filesystem::path& db);

} // namespace ashare::cli
