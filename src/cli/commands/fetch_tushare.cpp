// ashare fetch tushare [SYMBOL...]: bring the local store up to the last completed trading day
// from Tushare Pro (D18, D19), with a progress bar on a terminal and one summary line otherwise.
// The rules are the core's (core/fetch); this file reads the settings, takes the lock, and prints.
#include "cli/commands/fetch_providers.hpp"
#include "cli/fetch/fetch_args.hpp"
#include "cli/fetch/http_post.hpp"
#include "cli/output/formats.hpp"
#include "cli/output/progress.hpp"
#include "core/domain/clock.hpp"
#include "core/domain/symbol.hpp"
#include "core/domain/text.hpp"
#include "core/fetch/tushare/fetch_run.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/fetch_lock.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>

namespace ashare::cli {
namespace {

using fetch::FetchEnd;
using fetch::FetchReport;

// Tushare's rate window: a minute. For tests only, ASHARE_TUSHARE_WINDOW_MS shortens it, so that
// a per-minute answer is waited out in milliseconds.
std::chrono::milliseconds rate_window() {
  if (const auto text = process_environment()("ASHARE_TUSHARE_WINDOW_MS")) {
    try {
      return std::chrono::milliseconds(std::stoll(*text));
    } catch (const std::exception&) {
    }
  }
  return std::chrono::minutes(1);
}

int run_fetch_tushare(const FetchArgs& args, const Config& config) {
  if (config.base_url) {
    return fail("fetch writes the local store; run it without --base-url (remote mode)", k_exit_usage);
  }
  auto options = fetch_options(args);
  if (!options) {
    return fail(options.error().message, k_exit_usage);
  }
  // --dry-run sends nothing, so it needs no token.
  auto token = args.dry_run ? Result<std::string>(std::string()) : read_token(args.token_file, config);
  if (!token) {
    return fail(token.error().message, k_exit_usage);
  }
  auto lock = store::FetchLock::try_take(config.db.string());
  if (!lock) {
    note("another fetch is running on this store (" + store::redacted_locator(config.db.string()) + "); nothing done");
    return k_exit_ok;
  }
  const auto store = store::open_bar_store(config.db.string());
  // The global --timeout and --retries (and their backoff) apply to the source as to a remote.
  HttpPostTransport transport(args.source_url.value_or(config.sources.tushare_url), config.remote.timeout);
  fetch::SystemClock clock;
  fetch::Pacer pacer(clock, args.pace, rate_window());
  ProgressBar bar("fetch");
  std::mutex drawing; // the bar is drawn from two threads
  std::chrono::milliseconds waiting{0};
  fetch::FetchProgress last;
  const auto draw = [&] {
    std::string detail = (last.day ? last.day->iso() + " · " : std::string()) + with_thousands(std::to_string(last.rows))
                         + " bars · " + std::to_string(last.requests) + " calls";
    if (waiting.count() > 0) {
      detail += " · waiting " + std::to_string(waiting.count() / 1000) + " s for Tushare's pace";
    }
    bar.show(static_cast<std::int64_t>(last.units_done), static_cast<std::int64_t>(last.units_total), detail);
  };
  fetch::tushare::Client client(transport, pacer, clock,
                                {*token, config.remote.retries, config.remote.backoff, 6000},
                                [&](const fetch::tushare::CallEvent& event) {
                                  // From the thread that asks a day ahead (fetch_run.cpp).
                                  using Kind = fetch::tushare::CallEvent::Kind;
                                  const std::lock_guard held(drawing);
                                  waiting = event.kind == Kind::waited_for_window ? event.waited
                                                                                  : std::chrono::milliseconds(0);
                                  if (bar.active()) {
                                    draw();
                                  }
                                });
  const auto report = fetch::tushare::fetch_tushare(*store, client, *options,
                                                    [&](const fetch::FetchProgress& progress) {
                                                      const std::lock_guard held(drawing);
                                                      last = progress;
                                                      if (bar.active()) {
                                                        draw();
                                                      }
                                                    });
  bar.finish();
  return report_fetch(report, args, "Tushare");
}

} // namespace

void add_fetch_tushare(CLI::App& fetch, Action& action) {
  auto args = std::make_shared<FetchArgs>();
  auto* tushare = fetch.add_subcommand("tushare", "Fetch from Tushare Pro's HTTP API (the token's points decide what it may call)");
  add_common_fetch_options(*tushare, *args);
  tushare->add_option("--token-file", args->token_file, "Read the Tushare token from FILE (else ASHARE_TUSHARE_TOKEN or tushare_token)")
      ->type_name("FILE");
  tushare->add_option("--source-url", args->source_url, "Tushare's address (default ASHARE_TUSHARE_URL, tushare_url, http://api.tushare.pro)")
      ->type_name("URL");
  tushare->add_flag("--repair", args->repair, "Ask again for the missing bars that `ashare gaps` lists, and mark what the source lacks absent_at_source");
  tushare->add_option("--pace", args->pace, "Calls a minute at most, until Tushare says its limit (0: no pace, for benchmarks against a stand-in)")
      ->type_name("N")->check(CLI::Range(0, 100000))->default_val(180);
  tushare->footer(
      "The token comes from ASHARE_TUSHARE_TOKEN, tushare_token in the config file (chmod 600) or\n"
      "--token-file, never from the command line. Exit status: 0 done or up to date (also when\n"
      "another fetch holds the store, or the last day is not yet published), 1 a refused bar, a\n"
      "day past the calendar or --max-lag, 2 usage, 3 Tushare kept failing, 4 quota or token.\n"
      "\n"
      "Keep a store current every weekday evening (crontab):\n"
      "  CRON_TZ=Asia/Shanghai\n"
      "  30 17 * * 1-5  ASHARE_TUSHARE_TOKEN=... ashare fetch tushare --quiet --max-lag 2");
  // Set once parsing chose this provider: every provider's subcommand is declared.
  tushare->callback([&action, args] { action = [args](const Config& config) { return run_fetch_tushare(*args, config); }; });
}

} // namespace ashare::cli
