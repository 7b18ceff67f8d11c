// ashare fetch tdx [SYMBOL...]: bring the local store up to the last completed trading day from
// the TDX quote servers, without a key (D18, D19), with a progress bar on a terminal and one
// summary line otherwise. The rules are the core's (core/fetch/tdx); this file reads the settings
// (hosts, the SZSE calendar's address), takes the lock, and prints.
#include "cli/commands/fetch_providers.hpp"
#include "cli/fetch/fetch_args.hpp"
#include "cli/fetch/tdx_connector.hpp"
#include "cli/net/client.hpp"
#include "cli/net/proxy.hpp"
#include "cli/output/progress.hpp"
#include "cli/output/table.hpp"
#include "core/fetch/szse_calendar.hpp"
#include "core/fetch/tdx/fetch_run.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/fetch_lock.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace ashare::cli {
namespace {

int run_fetch_tdx(const FetchArgs& args, const Config& config) {
  if (config.base_url) {
    return fail("fetch writes the local store; run it without --base-url (remote mode)", k_exit_usage);
  }
  auto options = fetch_options(args);
  if (!options) {
    return fail(options.error().message, k_exit_usage);
  }
  const auto hosts = tdx_hosts(args.hosts, config);
  if (hosts.empty()) {
    return fail("no TDX host to ask: --hosts, ASHARE_TDX_HOSTS or tdx_hosts is empty", k_exit_usage);
  }
  auto lock = store::FetchLock::try_take(config.db.string());
  if (!lock) {
    note("another fetch is running on this store (" + store::redacted_locator(config.db.string()) + "); nothing done");
    return k_exit_ok;
  }
  const auto store = store::open_bar_store(config.db.string());
  // The global --timeout bounds each step of an exchange; --retries is how many times every host
  // may fail before a call does (a round is each host once).
  TdxConnector connector(config.remote.timeout);
  fetch::SystemClock clock;
  fetch::Pacer pacer(clock, args.pace, std::chrono::minutes(1));
  fetch::tdx::Client client(connector, {hosts, std::max(1, config.remote.retries), &pacer});
  const std::string szse = config.sources.szse_url.empty() ? std::string(fetch::k_szse_month_list_url)
                                                           : config.sources.szse_url;
  net::HttpClient http(net::HttpSettings{szse, config.remote.timeout, std::nullopt,
                                         net::read_proxy_environment(process_environment())});
  const fetch::tdx::MonthGetter get_month = [&](domain::Date month) -> fetch::Exchange {
    net::HttpRequest request;
    request.target = fetch::szse_month_url("", month); // "?month=YYYY-MM" after the address
    auto outcome = http.exchange(request);
    if (auto* failure = std::get_if<net::Failure>(&outcome)) {
      return fetch::NetworkFailure{szse + ": " + failure->reason};
    }
    auto& response = std::get<net::HttpResponse>(outcome);
    return fetch::Answer{response.status, std::move(response.body)};
  };
  ProgressBar bar("fetch");
  const auto report = fetch::tdx::fetch_tdx(*store, client, get_month, *options,
                                            [&](const fetch::FetchProgress& progress) {
                                              if (!bar.active()) {
                                                return;
                                              }
                                              bar.show(static_cast<std::int64_t>(progress.units_done),
                                                       static_cast<std::int64_t>(progress.units_total),
                                                       progress.symbol + " · "
                                                           + with_thousands(std::to_string(progress.rows))
                                                           + " bars · " + std::to_string(progress.requests)
                                                           + " calls");
                                            });
  bar.finish();
  return report_fetch(report, args, "TDX");
}

} // namespace

void add_fetch_tdx(CLI::App& fetch, Action& action) {
  auto args = std::make_shared<FetchArgs>();
  args->pace = 1200;
  auto* tdx = fetch.add_subcommand("tdx", "Fetch from the TDX quote servers (no key; A-shares of SZ, SH and BJ)");
  add_common_fetch_options(*tdx, *args);
  tdx->add_option("--hosts", args->hosts, "Servers to ask in turn, HOST[:PORT],... (default ASHARE_TDX_HOSTS, tdx_hosts, a compiled-in public list)")
      ->type_name("LIST");
  tdx->add_flag("--repair", args->repair, "Ask again for the missing bars that `ashare gaps` lists, and mark what TDX lacks absent_at_source");
  tdx->add_option("--pace", args->pace, "Calls a minute at most (0: no pace, for a stand-in)")
      ->type_name("N")->check(CLI::Range(0, 100000))->default_val(1200);
  tdx->footer(
      "TDX answers per symbol: a run cut short keeps whole symbols and resumes with the next, and\n"
      "a day enters the ledger once every symbol is stored through it. TDX lists no delisted codes:\n"
      "a store fed by TDX alone is survivorship-biased. The calendar comes from SZSE's monthList\n"
      "(ASHARE_SZSE_URL, szse_url). Exit status: 0 done or up to date (also when another fetch\n"
      "holds the store, or the last day is not yet published), 1 a refused bar, a day past the\n"
      "calendar or --max-lag, 2 usage, 3 every host kept failing.\n"
      "\n"
      "Keep a store current every weekday evening (crontab):\n"
      "  CRON_TZ=Asia/Shanghai\n"
      "  30 17 * * 1-5  ashare fetch tdx --quiet --max-lag 2");
  // Set once parsing chose this provider: every provider's subcommand is declared.
  tdx->callback([&action, args] { action = [args](const Config& config) { return run_fetch_tdx(*args, config); }; });
}

} // namespace ashare::cli
