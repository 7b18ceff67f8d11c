// The configuration of one run, resolved in one function with the precedence
// flag > environment > config file > default. (CLI11 2.1's config-file support applies the file
// before the environment, so it cannot give that order.)
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::cli {

// The global options as given on the command line (nullopt when absent).
struct GlobalFlags {
  std::optional<std::string> db;
  std::optional<std::string> keys_db;
  std::optional<std::string> cache_db;
  std::optional<std::string> base_url;
  std::optional<std::string> api_key;
  std::optional<std::string> format;
  std::optional<std::string> convention; // of the indicator commands and chart overlays (D13)
  std::optional<std::string> plan;
  std::optional<std::string> config; // --config FILE: another config file
  // `serve` (issue 9), checked by the command.
  std::optional<std::string> listen;
  std::optional<std::string> threads;
  std::optional<std::string> max_connections;
  std::optional<std::string> header_timeout;
  std::optional<std::string> idle_timeout;
  std::optional<std::string> write_timeout;
  std::optional<std::string> drain_timeout;
  std::optional<std::string> cache_budget; // MiB
  std::optional<std::string> rate_limit;   // "on", "off" or PLAN=N,... (D14)
  // The sources of `fetch` (D18). The token has no flag: never a command-line value.
  std::optional<std::string> tushare_token;
  std::optional<std::string> tushare_url;
  std::optional<std::string> tdx_hosts; // comma-separated HOST[:PORT]
  std::optional<std::string> szse_url;
  std::optional<std::string> indices; // comma-separated symbols (D20); no flag: fetch's --indices
  std::optional<std::string> members; // comma-separated indices (D20); no flag: fetch's --members
};

// The output formats of the query commands.
enum class Format { table, csv, json, ndjson };

// Parse a `convention` setting (talib or tdx, any letter case) to lower case; INVALID_INPUT
// otherwise.
Result<std::string> parse_convention(const std::string& text);

// Parse a `format` setting (table, csv, json, ndjson); INVALID_INPUT otherwise.
Result<Format> parse_format(const std::string& text);

// The keys of a config file (TOML subset: `key = "value"` lines, `#` comments).
using ConfigFile = std::map<std::string, std::string>;

// How to talk to a remote server (flags only).
struct RemoteOptions {
  std::optional<std::string> ca_file;    // PEM bundle of a private CA
  std::chrono::milliseconds timeout{30'000};
  int retries = 3;                        // after the first attempt, on connection errors and 5xx
  std::chrono::milliseconds backoff{500}; // doubled after each retry
  bool offline = false;                   // answer from the cache only, never the network
  bool refresh = false;                   // ask the remote's as_of now and refetch what changed
};

// The settings of `serve` as resolved, unparsed (nullopt: the command's default).
struct ServeConfig {
  std::optional<std::string> listen;
  std::optional<std::string> threads;
  std::optional<std::string> max_connections;
  std::optional<std::string> header_timeout; // seconds
  std::optional<std::string> idle_timeout;
  std::optional<std::string> write_timeout;
  std::optional<std::string> drain_timeout;
  std::optional<std::string> cache_budget;   // MiB of the history cache
  std::optional<std::string> rate_limit;     // "on", "off" or PLAN=N,... (D14)
};

// Where `fetch` reads from (D18), as resolved.
struct SourceConfig {
  std::optional<std::string> tushare_token;            // secret: never printed
  std::string tushare_url = "http://api.tushare.pro";  // Tushare Pro's API
  std::vector<std::string> tdx_hosts;                  // empty: the compiled-in public hosts
  std::string szse_url;                                // empty: SZSE's own monthList address
  std::optional<std::string> indices;                  // as written (D20); none: D20's default list
  std::optional<std::string> members;                  // as written (D20); none: D20's default three
};

struct Config {
  std::filesystem::path db;              // the data store
  std::filesystem::path keys_db;         // the key store
  std::filesystem::path cache_db;        // the remote-mode cache
  std::optional<std::string> base_url;   // remote mode when set
  std::optional<std::string> api_key;    // for the remote
  std::optional<std::string> format;     // table|csv|json|ndjson; nullopt: by terminal
  // The indicators' convention, talib or tdx (D13), lower-case; nullopt: the API's default, talib.
  // An invalid value is an error of the commands that read it, as `format`.
  Result<std::optional<std::string>> convention = std::optional<std::string>{};
  std::string plan = "free";             // the remote key's plan: its defaults, reach, batches
  // `format` and `plan` parsed, once: an invalid value is an error of the commands that read it
  // (a bad ASHARE_FORMAT does not stop `serve`, `import` or `keys`).
  Result<std::optional<Format>> output_format = std::optional<Format>{};
  Result<auth::Plan> remote_plan = auth::Plan::free;
  RemoteOptions remote;
  ServeConfig serve;
  SourceConfig sources;
};

// Looks up an environment variable; nullopt when unset.
using Environment = std::function<std::optional<std::string>(std::string_view name)>;

// Return the items of the comma-separated `text`, each trimmed of spaces, empty ones left out
// (tdx_hosts, --hosts).
std::vector<std::string> split_comma_list(std::string_view text);

// Return the process environment as an Environment.
Environment process_environment();

// Return the config file path: `flags.config`, else $XDG_CONFIG_HOME/ashare/config.toml
// (XDG_CONFIG_HOME defaulting to ~/.config).
std::filesystem::path config_file_path(const GlobalFlags& flags, const Environment& environment);

// Parse config file `text` (named `path` in messages). Keys: db, keys_db, cache_db, base_url,
// api_key, format, convention, plan, tushare_token, tushare_url, tdx_hosts, szse_url, indices, members, and serve's listen, threads, max_connections, header_timeout,
// idle_timeout, write_timeout, drain_timeout, cache_budget and rate_limit. An unknown key or a
// malformed line is INVALID_INPUT "path:line: what".
Result<ConfigFile> parse_config_file(std::string_view text, const std::string& path);

// Return whether the store locator `locator` holds a password: a postgresql:// or postgres://
// URI with one in its user info or its query, or a libpq key=value string with password=.
bool holds_password(std::string_view locator);

// Read and parse the config file at `path`; an absent file is an empty ConfigFile. A file that
// holds api_key, or a db, keys_db or cache_db with a password (holds_password), and is readable
// by group or others is refused with the chmod that fixes it (issue 13).
Result<ConfigFile> load_config_file(const std::filesystem::path& path);

// Resolve every setting from `flags`, then `environment` (ASHARE_DB, ASHARE_KEYS_DB,
// ASHARE_CACHE_DB, ASHARE_BASE_URL, ASHARE_API_KEY, ASHARE_FORMAT, ASHARE_CONVENTION, ASHARE_PLAN,
// and ASHARE_LISTEN,
// ASHARE_THREADS, ASHARE_MAX_CONNECTIONS, ASHARE_HEADER_TIMEOUT, ASHARE_IDLE_TIMEOUT,
// ASHARE_WRITE_TIMEOUT, ASHARE_DRAIN_TIMEOUT for serve), then `file`, then the default: db
// $XDG_DATA_HOME/ashare/ashare.db (XDG_DATA_HOME defaulting to ~/.local/share), keys_db and
// cache_db (the remote-mode cache) beside db with "-keys" and "-cache" added to its stem, plan
// free. Empty values count as unset; format and plan are parsed here, once.
Config resolve_config(const GlobalFlags& flags, const Environment& environment, const ConfigFile& file);

// Return the key store path that goes with data store `db` (ashare.db -> ashare-keys.db).
std::filesystem::path default_keys_path(const std::filesystem::path& db);

// Return the cache store path that goes with data store `db` (ashare.db -> ashare-cache.db).
std::filesystem::path default_cache_path(const std::filesystem::path& db);

} // namespace ashare::cli
