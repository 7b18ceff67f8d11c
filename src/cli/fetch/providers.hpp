// The market's providers on the command line (D18), one row each, as main.cpp's k_commands: the
// name `fetch PROVIDER` and `verify --against PROVIDER` give, its default pace, the options it takes
// beyond those every provider takes, and how to open it (its client built from the settings: the
// gateway or connector, the pacer, the clock). `fetch` and `verify` both read the table.
#pragma once

#include "cli/config.hpp"
#include "core/error.hpp"
#include "core/fetch/provider.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace ashare::cli {

// An option of a provider's own.
enum class ProviderOption { token_file, source_url, hosts };

// What the command line gives a provider: its own options (set only where given) and the pace.
struct ProviderArgs {
  std::optional<std::string> token_file;
  std::optional<std::string> source_url;
  std::optional<std::string> hosts; // comma-separated, replacing tdx_hosts
  std::optional<int> pace;          // calls a minute (0: no pace); none: the provider's default
  bool dry_run = false;             // nothing is sent: no token is needed
};

// A provider opened: the core's fetch::Provider and what it asks through, alive as long as this.
class OpenProvider {
public:
  virtual ~OpenProvider() = default;
  virtual fetch::Provider& provider() = 0;
};

struct ProviderSpec {
  std::string_view name;    // "tushare": `fetch tushare`, `verify --against tushare`
  std::string_view display; // in messages: "Tushare"
  std::string_view summary; // `fetch`'s help line
  int default_pace;         // calls a minute, under the source's published limit (D18)
  std::string_view pace_help;
  std::span<const ProviderOption> options;
  std::string_view fetch_footer; // the exit statuses and a crontab line
  // Open the provider for `args` under `config`; a usage error when a setting is missing (no
  // token, no host).
  Result<std::unique_ptr<OpenProvider>> (*open)(const ProviderArgs& args, const Config& config);
  // Whether it answers index membership (D20: Tushare's `index_weight`); else --members is a usage
  // error.
  bool members = false;
};

// Return every provider's row, in the order help lists them.
std::span<const ProviderSpec> provider_table();

// Return the row of provider `name`, or nullptr.
const ProviderSpec* find_provider(std::string_view name);

// Return every provider's own options, each once.
std::span<const ProviderOption> every_provider_option();

// Declare `option` on `command`, writing into `args`; on a command that takes every provider's
// options (`every_provider`: verify), its help says whose it is.
void add_provider_option(CLI::App& command, ProviderOption option, ProviderArgs& args, bool every_provider = false);

// Return a usage error naming the first option set in `args` that `spec`'s provider does not take,
// as `verify --against` is told (D18: an option that does not apply to the provider chosen is a
// usage error, exit 2; `fetch PROVIDER` declares only its provider's).
Status check_options_apply(const ProviderSpec& spec, const ProviderArgs& args);

// Return the Tushare token (D18): from `token_file` when given, else ASHARE_TUSHARE_TOKEN or the
// config file's tushare_token, never a flag's value; a usage error says where to put one.
Result<std::string> read_token(const std::optional<std::string>& token_file, const Config& config);

// Return the TDX hosts to ask (D18): `flag` (--hosts) when given, else ASHARE_TDX_HOSTS or the
// config file's tdx_hosts, else the compiled-in public list.
std::vector<std::string> tdx_hosts(const std::optional<std::string>& flag, const Config& config);

} // namespace ashare::cli
