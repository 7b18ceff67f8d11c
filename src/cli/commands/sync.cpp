// ashare sync SYMBOL... [--symbols-file FILE] [--from DATE] [--to DATE] [--plan PLAN]: pulls raw
// bars from the remote into the cache. Idempotent and resumable: only the ranges the cache lacks
// are fetched, and every page is saved as it arrives. The rules (window, batches within the plan's
// maxima, D6) are the core's remote/sync; this file reads the arguments and shows progress.
#include "cli/output/progress.hpp"
#include "cli/commands/query_run.hpp"
#include "cli/remote/remote_gateway.hpp"
#include "core/api/json.hpp"
#include "core/api/request_checks.hpp"
#include "core/domain/symbol.hpp"
#include "core/remote/reply.hpp"
#include "core/remote/sync.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <unistd.h>

namespace ashare::cli {
namespace {

using domain::Date;

struct SyncArgs {
  std::vector<std::string> symbols;
  std::optional<std::string> symbols_file;
  std::optional<std::string> from;
  std::optional<std::string> to;
};

// Append the canonical symbols of `text` (comma-separated) to `out`, skipping duplicates.
Status add_symbols(const std::string& text, std::vector<std::string>& out) {
  auto symbols = domain::parse_symbol_list(text);
  if (!symbols) {
    return symbols.error();
  }
  for (const auto& symbol : *symbols) {
    if (std::find(out.begin(), out.end(), symbol.str()) == out.end()) {
      out.push_back(symbol.str());
    }
  }
  return Ok{};
}

// Return the symbols of the arguments, then of --symbols-file (one per line or comma-separated;
// blank lines and # comments skipped), canonical and without duplicates, in order.
Result<std::vector<std::string>> collect_symbols(const SyncArgs& args) {
  std::vector<std::string> out;
  for (const auto& text : args.symbols) {
    if (auto status = add_symbols(text, out); !status) {
      return status.error();
    }
  }
  if (args.symbols_file) {
    std::ifstream in(*args.symbols_file);
    if (!in) {
      return make_error(ErrorCode::invalid_input,
                        "cannot read --symbols-file \"" + *args.symbols_file + "\"");
    }
    for (std::string line; std::getline(in, line);) {
      const auto start = line.find_first_not_of(" \t\r");
      if (start == std::string::npos || line[start] == '#') {
        continue;
      }
      if (auto status = add_symbols(line, out); !status) {
        return status.error();
      }
    }
  }
  if (out.empty()) {
    return make_error(ErrorCode::invalid_input,
                      "no symbols to sync: name some or give --symbols-file");
  }
  return out;
}

// Return the window to sync of --from and --to (remote::sync_window gives the defaults).
Result<remote::DateRange> sync_window(const SyncArgs& args, auth::Plan plan, Date as_of) {
  const auto from = domain::parse_optional_iso_date(args.from, "--from");
  const auto to = domain::parse_optional_iso_date(args.to, "--to");
  if (!from || !to) {
    return from ? to.error() : from.error();
  }
  const auto window = remote::sync_window(plan, as_of, *from, *to);
  if (window.first > window.last) {
    return make_error(ErrorCode::invalid_parameter, "nothing to sync: --from " + window.first.iso()
                                                      + " is after " + window.last.iso()
                                                      + " (--to, or the remote's as_of)");
  }
  return window;
}

// Progress on stderr: a bar redrawn in place on a terminal, else one summary line at the end.
class Progress {
public:
  explicit Progress(std::size_t total) : m_total(total), m_bar("sync") {}

  void advance(std::size_t symbols, const remote::FetchStats& stats) {
    m_done += symbols;
    m_bar.show(static_cast<std::int64_t>(m_done), static_cast<std::int64_t>(m_total),
               std::to_string(m_done) + "/" + std::to_string(m_total) + " ranges, "
                 + with_thousands(std::to_string(stats.bars)) + " bars");
  }

  void finish(std::size_t symbols,
              std::size_t cached,
              remote::DateRange window,
              const remote::FetchStats& stats) {
    if (m_bar.active()) {
      m_bar.finish();
      return;
    }
    std::cerr << "sync: " << symbols << " symbols, " << window.first.iso() << " to "
              << window.last.iso() << ": " << with_thousands(std::to_string(stats.bars))
              << " bars fetched in " << stats.requests << " requests, " << cached
              << " symbols already cached\n";
  }

private:
  std::size_t m_total;
  std::size_t m_done = 0;
  ProgressBar m_bar;
};

int run_sync(const SyncArgs& args, const Config& config) {
  if (!config.base_url) {
    return fail("sync needs a remote: give --base-url or set ASHARE_BASE_URL", k_exit_usage);
  }
  if (config.remote.offline) {
    return fail("sync cannot work --offline", k_exit_usage);
  }
  const auto& plan = config.remote_plan;
  if (!plan) {
    return fail(plan.error().message, k_exit_usage);
  }
  const auto symbols = collect_symbols(args);
  if (!symbols) {
    return fail(symbols.error().message);
  }
  auto gateway = open_remote_gateway(config, config.remote);
  store::CacheStore cache(config.cache_db);
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  remote::CacheFiller filler(*gateway, cache, *config.base_url, *plan,
                             std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
  const auto as_of = filler.as_of(true);
  if (!as_of || !*as_of) {
    return fail(as_of ? *config.base_url + " holds no data" : as_of.error().message);
  }
  const auto window = sync_window(args, *plan, **as_of);
  if (!window) {
    return fail(window.error().message, k_exit_usage);
  }
  std::size_t cached = 0;
  const auto groups = remote::missing_work(filler, *symbols, *window, cached);
  std::size_t total = 0;
  for (const auto& group : groups) {
    total += group.symbols.size();
  }
  remote::FetchStats stats;
  Progress progress(total);
  const auto refusal =
    remote::fetch_groups(filler, groups, *plan, stats,
                         [&](std::size_t done, const remote::FetchStats& so_far) {
                           progress.advance(done, so_far);
                         });
  progress.finish(symbols->size(), cached, *window, stats);
  if (refusal) {
    return fail_with(remote::error_of_reply(*refusal));
  }
  for (const auto& symbol : stats.unknown) {
    fail_with(api::unknown_symbol(symbol));
  }
  return stats.unknown.empty() ? k_exit_ok : k_exit_error;
}

} // namespace

Action setup_sync(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<SyncArgs>();
  command.add_option("SYMBOLS", args->symbols, "Symbols (comma-separated also), e.g. 600519.SH");
  command
      .add_option("--symbols-file", args->symbols_file,
                  "More symbols, one a line (# comments and blank lines skipped)")
      ->check(CLI::ExistingFile)
      ->type_name("FILE");
  command
      .add_option("--from", args->from,
                  "First date (default: as far back as the plan reaches from as_of)")
      ->type_name("DATE");
  command.add_option("--to", args->to, "Last date (default: the remote's as_of)")
      ->type_name("DATE");
  command
      .add_option("--plan", flags.plan,
                  "The remote key's plan, for batch sizes and history (env ASHARE_PLAN; "
                  "default free)")
      ->type_name("PLAN"); // checked with ASHARE_PLAN and the file's, by resolve_config
  return [args](const Config& config) { return run_sync(*args, config); };
}

} // namespace ashare::cli
