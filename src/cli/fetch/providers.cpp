#include "cli/fetch/providers.hpp"

#include "cli/fetch/tdx_connector.hpp"
#include "cli/net/http_gateway.hpp"
#include "core/domain/clock.hpp"
#include "core/fetch/pacer.hpp"
#include "core/fetch/szse_calendar.hpp"
#include "core/fetch/tdx/hosts.hpp"
#include "core/fetch/tdx/provider.hpp"
#include "core/fetch/tushare/provider.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

namespace ashare::cli {
namespace {

// A provider's own options: the flag, its help, where it is written.
struct OptionRow {
  ProviderOption option;
  const char* flag;
  const char* type_name;
  const char* help;
  const char* verify_help; // on `verify`, which takes every provider's options, whose it is
  std::optional<std::string> ProviderArgs::*member;
};

constexpr OptionRow k_options[] = {
    {ProviderOption::token_file, "--token-file", "FILE",
     "Read the Tushare token from FILE (else ASHARE_TUSHARE_TOKEN or tushare_token)",
     "Read the Tushare token from FILE (tushare only, as fetch tushare)", &ProviderArgs::token_file},
    {ProviderOption::source_url, "--source-url", "URL",
     "Tushare's address (default ASHARE_TUSHARE_URL, tushare_url, http://api.tushare.pro)",
     "Tushare's address (tushare only, as fetch tushare)", &ProviderArgs::source_url},
    {ProviderOption::hosts, "--hosts", "LIST",
     "Servers to ask in turn, HOST[:PORT],... (default ASHARE_TDX_HOSTS, tdx_hosts, a compiled-in public list)",
     "TDX servers to ask in turn (tdx only, as fetch tdx)", &ProviderArgs::hosts},
};

const OptionRow& row_of(ProviderOption option) {
  return *std::find_if(std::begin(k_options), std::end(k_options), [&](const auto& row) { return row.option == option; });
}

// Tushare's rate window: a minute. For tests only, ASHARE_TUSHARE_WINDOW_MS shortens it, so that
// a per-minute answer is waited out in milliseconds.
std::chrono::milliseconds tushare_window() {
  if (const auto text = process_environment()("ASHARE_TUSHARE_WINDOW_MS")) {
    try {
      return std::chrono::milliseconds(std::stoll(*text));
    } catch (const std::exception&) {
    }
  }
  return std::chrono::minutes(1);
}

fetch::tushare::ClientSettings settings_of(const Config& config, std::string token) {
  fetch::tushare::ClientSettings settings; // the page's rows as Tushare caps them
  settings.token = std::move(token);
  settings.retries = config.remote.retries;
  settings.backoff = config.remote.backoff;
  return settings;
}

// Tushare's gateway: `url`, each step bounded by `timeout`. A whole-market day is about 0.5 MB of
// JSON: compressing it costs the source more time than sending it plain costs the network
// (measured against the stand-in: 40 ms a call), and a fetch moves a few MB a day at most.
net::GatewaySettings tushare_gateway(std::string url, std::chrono::milliseconds timeout) {
  return {std::move(url), timeout, std::nullopt, {}, false};
}

// Tushare Pro over HTTP POST. The global --timeout and --retries (and their backoff) apply to the
// source as to a remote.
struct OpenTushare final : OpenProvider {
  OpenTushare(const ProviderArgs& args, const Config& config, std::string token, int pace)
      : gateway(tushare_gateway(args.source_url.value_or(config.sources.tushare_url), config.remote.timeout)),
        pacer(clock, pace, tushare_window()), client(gateway, pacer, clock, settings_of(config, std::move(token))),
        tushare(client) {}
  fetch::Provider& provider() override { return tushare; }

  net::HttpGateway gateway;
  domain::SystemClock clock;
  fetch::Pacer pacer;
  fetch::tushare::Client client;
  fetch::tushare::TushareProvider tushare;
};

// The TDX quote servers over TCP, and SZSE's monthList over HTTP for the calendar. The global
// --timeout bounds each step of an exchange; --retries is how many times every host may fail before
// a call does (a round is each host once).
struct OpenTdx final : OpenProvider {
  OpenTdx(std::vector<std::string> hosts, const Config& config, int pace)
      : connector(config.remote.timeout), pacer(clock, pace, std::chrono::minutes(1)),
        client(connector, {std::move(hosts), std::max(1, config.remote.retries), &pacer}),
        szse({config.sources.szse_url.empty() ? std::string(fetch::k_szse_month_list_url) : config.sources.szse_url,
              config.remote.timeout}),
        tdx(client, szse) {}
  fetch::Provider& provider() override { return tdx; }

  TdxConnector connector;
  domain::SystemClock clock;
  fetch::Pacer pacer;
  fetch::tdx::Client client;
  net::HttpGateway szse; // "?month=YYYY-MM" after the monthList's address
  fetch::tdx::TdxProvider tdx;
};

// The paces under the sources' published limits (D18): Tushare's until it says its own.
constexpr int k_tushare_pace = 180;
constexpr int k_tdx_pace = 1200;

Result<std::unique_ptr<OpenProvider>> open_tushare(const ProviderArgs& args, const Config& config);
Result<std::unique_ptr<OpenProvider>> open_tdx(const ProviderArgs& args, const Config& config);

constexpr ProviderOption k_tushare_options[] = {ProviderOption::token_file, ProviderOption::source_url};
constexpr ProviderOption k_tdx_options[] = {ProviderOption::hosts};

constexpr ProviderSpec k_providers[] = {
    {"tushare", "Tushare", "Fetch from Tushare Pro's HTTP API (the token's points decide what it may call)", k_tushare_pace,
     "Calls a minute at most, until Tushare says its limit (0: no pace, for benchmarks against a stand-in)",
     k_tushare_options,
     "The token comes from ASHARE_TUSHARE_TOKEN, tushare_token in the config file (chmod 600) or\n"
     "--token-file, never from the command line. Exit status: 0 done or up to date (also when\n"
     "another fetch holds the store, or the last day is not yet published), 1 a refused bar, a\n"
     "day past the calendar or --max-lag, 2 usage, 3 Tushare kept failing, 4 quota or token.\n"
     "\n"
     "Keep a store current every weekday evening (crontab):\n"
     "  CRON_TZ=Asia/Shanghai\n"
     "  30 17 * * 1-5  ASHARE_TUSHARE_TOKEN=... ashare fetch tushare --quiet --max-lag 2",
     open_tushare, true},
    {"tdx", "TDX", "Fetch from the TDX quote servers (no key; A-shares of SZ, SH and BJ)", k_tdx_pace,
     "Calls a minute at most (0: no pace, for a stand-in)", k_tdx_options,
     "TDX answers per symbol: a run cut short keeps whole symbols and resumes with the next, and\n"
     "a day enters the ledger once every symbol is stored through it. TDX lists no delisted codes:\n"
     "a store fed by TDX alone is survivorship-biased. The calendar comes from SZSE's monthList\n"
     "(ASHARE_SZSE_URL, szse_url). Exit status: 0 done or up to date (also when another fetch\n"
     "holds the store, or the last day is not yet published), 1 a refused bar, a day past the\n"
     "calendar or --max-lag, 2 usage, 3 every host kept failing.\n"
     "\n"
     "Keep a store current every weekday evening (crontab):\n"
     "  CRON_TZ=Asia/Shanghai\n"
     "  30 17 * * 1-5  ashare fetch tdx --quiet --max-lag 2",
     open_tdx},
};

Result<std::unique_ptr<OpenProvider>> open_tushare(const ProviderArgs& args, const Config& config) {
  // --dry-run sends nothing, so it needs no token.
  auto token = args.dry_run ? Result<std::string>(std::string()) : read_token(args.token_file, config);
  if (!token) {
    return token.error();
  }
  return std::unique_ptr<OpenProvider>(
      std::make_unique<OpenTushare>(args, config, std::move(*token), args.pace.value_or(k_tushare_pace)));
}

Result<std::unique_ptr<OpenProvider>> open_tdx(const ProviderArgs& args, const Config& config) {
  auto hosts = tdx_hosts(args.hosts, config);
  if (hosts.empty()) {
    return make_error(ErrorCode::invalid_input, "no TDX host to ask: --hosts, ASHARE_TDX_HOSTS or tdx_hosts is empty");
  }
  return std::unique_ptr<OpenProvider>(
      std::make_unique<OpenTdx>(std::move(hosts), config, args.pace.value_or(k_tdx_pace)));
}

} // namespace

std::span<const ProviderSpec> provider_table() {
  return k_providers;
}

const ProviderSpec* find_provider(std::string_view name) {
  const auto it = std::find_if(std::begin(k_providers), std::end(k_providers),
                               [&](const ProviderSpec& spec) { return spec.name == name; });
  return it == std::end(k_providers) ? nullptr : &*it;
}

std::span<const ProviderOption> every_provider_option() {
  static constexpr ProviderOption k_every[] = {ProviderOption::token_file, ProviderOption::source_url,
                                               ProviderOption::hosts};
  static_assert(std::size(k_every) == std::size(k_options));
  return k_every;
}

void add_provider_option(CLI::App& command, ProviderOption option, ProviderArgs& args, bool every_provider) {
  const auto& row = row_of(option);
  command.add_option(row.flag, args.*row.member, every_provider ? row.verify_help : row.help)->type_name(row.type_name);
}

namespace {

bool takes(const ProviderSpec& spec, ProviderOption option) {
  return std::find(spec.options.begin(), spec.options.end(), option) != spec.options.end();
}

} // namespace

Status check_options_apply(const ProviderSpec& spec, const ProviderArgs& args) {
  for (const auto& row : k_options) {
    if (takes(spec, row.option) || !(args.*row.member)) {
      continue;
    }
    std::string owners;
    for (const auto& other : k_providers) {
      if (takes(other, row.option)) {
        owners += (owners.empty() ? "" : " and ") + std::string(other.name) + "'s";
      }
    }
    return make_error(ErrorCode::invalid_parameter, std::string(row.flag) + " does not apply to --against "
                                                        + std::string(spec.name) + " (it is " + owners + ")");
  }
  return Ok{};
}

// D18: the token from --token-file, ASHARE_TUSHARE_TOKEN or the config file, never a flag's
// value; a token file readable by others is refused as the config file is.
Result<std::string> read_token(const std::optional<std::string>& token_file, const Config& config) {
  if (!token_file) {
    if (!config.sources.tushare_token) {
      return make_error(ErrorCode::invalid_input,
                        "no Tushare token: set ASHARE_TUSHARE_TOKEN, tushare_token in the config "
                        "file, or --token-file FILE");
    }
    return *config.sources.tushare_token;
  }
  std::ifstream in(*token_file, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, *token_file + ": cannot open the token file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ')) {
    token.pop_back();
  }
  if (token.empty()) {
    return make_error(ErrorCode::invalid_input, *token_file + ": the token file is empty");
  }
  return token;
}

std::vector<std::string> tdx_hosts(const std::optional<std::string>& flag, const Config& config) {
  if (flag) {
    return split_comma_list(*flag);
  }
  if (!config.sources.tdx_hosts.empty()) {
    return config.sources.tdx_hosts;
  }
  return {fetch::tdx::k_default_hosts.begin(), fetch::tdx::k_default_hosts.end()};
}

} // namespace ashare::cli
