// ashare fetch PROVIDER [SYMBOL...]: bring the local store up to the last completed trading day
// from a provider of the table (cli/fetch/providers.hpp; D18, D19), with a progress bar on a
// terminal and one summary line otherwise. The rules are the core's (fetch::run_fetch); this file
// declares a subcommand a provider, opens the one given, and prints.
#include "cli/commands/command.hpp"
#include "cli/fetch/fetch_args.hpp"
#include "cli/fetch/providers.hpp"
#include "cli/output/progress.hpp"
#include "cli/output/table.hpp"
#include "core/fetch/run_fetch.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace ashare::cli {
namespace {

// Return the progress bar's detail: the day or symbol being fetched, bars, calls, a wait.
std::string detail_of(const fetch::FetchProgress& progress, std::string_view source) {
  std::string detail = (progress.day ? progress.day->iso() + " · " : std::string())
                       + (progress.symbol.empty() ? std::string() : progress.symbol + " · ")
                       + with_thousands(std::to_string(progress.rows)) + " bars · "
                       + std::to_string(progress.requests) + " calls";
  if (progress.waiting.count() > 0) {
    detail += " · waiting " + std::to_string(progress.waiting.count() / 1000) + " s for " + std::string(source)
              + "'s pace";
  }
  return detail;
}

int run_fetch_from(const ProviderSpec& spec, const FetchArgs& args, const Config& config) {
  if (config.base_url) {
    return fail("fetch writes the local store; run it without --base-url (remote mode)", k_exit_usage);
  }
  if (args.members && !spec.members) {
    return fail("--members: " + std::string(spec.display)
                    + " has no index membership (D20: it comes from Tushare's `index_weight`)",
                k_exit_usage);
  }
  auto options = fetch_options(args, config);
  if (!options) {
    return fail(options.error().message, k_exit_usage);
  }
  auto opened = spec.open(args.provider, config);
  if (!opened) {
    return fail(opened.error().message, k_exit_usage);
  }
  ProgressBar bar("fetch");
  // Called on this thread only (fetch::run_fetch): the bar needs no lock.
  const auto report = fetch::run_fetch(config.db.string(), (*opened)->provider(), *options,
                                       [&](const fetch::FetchProgress& progress) {
                                         if (bar.active()) {
                                           bar.show(static_cast<std::int64_t>(progress.units_done),
                                                    static_cast<std::int64_t>(progress.units_total),
                                                    detail_of(progress, spec.display));
                                         }
                                       });
  bar.finish();
  return report_fetch(report, args, spec.display);
}

// Declare `spec`'s subcommand under `fetch`, setting `action` when it is the one given.
void add_provider(CLI::App& fetch, const ProviderSpec& spec, Action& action) {
  auto args = std::make_shared<FetchArgs>();
  auto* command = fetch.add_subcommand(std::string(spec.name), std::string(spec.summary));
  add_common_fetch_options(*command, *args, spec.default_pace, spec.pace_help);
  for (const auto option : spec.options) {
    add_provider_option(*command, option, args->provider);
  }
  command->footer(std::string(spec.fetch_footer));
  command->callback([&action, &spec, args] {
    action = [&spec, args](const Config& config) { return run_fetch_from(spec, *args, config); };
  });
}

} // namespace

Action setup_fetch(CLI::App& command, GlobalFlags&) {
  command.require_subcommand(1);
  auto action = std::make_shared<Action>();
  for (const auto& spec : provider_table()) {
    add_provider(command, spec, *action);
  }
  return [action](const Config& config) { return (*action)(config); };
}

} // namespace ashare::cli
