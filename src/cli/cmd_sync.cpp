// ashare sync SYMBOL... [--symbols-file FILE] [--from DATE] [--to DATE] [--plan PLAN]: pulls raw
// bars from the remote into the cache. Idempotent and resumable: only the ranges the cache lacks
// are fetched, and every page is saved as it arrives. Requests stay within the plan's maxima
// (D6); on 403 PLAN_LIMIT the batch is halved and retried.
#include "cli/cache_fill.hpp"
#include "cli/progress.hpp"
#include "cli/query_run.hpp"
#include "core/api/json.hpp"
#include "core/domain/symbol.hpp"

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

// Symbols missing the same range: what one request (split into batches) can fetch.
struct Group {
  query::DateRange range;
  std::vector<std::string> symbols;
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

// Return the window to sync: --from, by default as far back as `plan` reaches from `as_of` (D6);
// --to, by default as_of; never past as_of, which has no later bars.
Result<query::DateRange> sync_window(const SyncArgs& args, auth::Plan plan, Date as_of) {
  query::DateRange window{auth::earliest_reachable(plan, as_of).value_or(query::k_first_session),
                          as_of};
  if (args.from) {
    auto from = domain::parse_iso_date(*args.from, "--from");
    if (!from) {
      return from.error();
    }
    window.first = *from;
  }
  if (args.to) {
    auto to = domain::parse_iso_date(*args.to, "--to");
    if (!to) {
      return to.error();
    }
    window.last = std::min(*to, as_of);
  }
  if (window.first > window.last) {
    return make_error(ErrorCode::invalid_parameter, "nothing to sync: --from " + window.first.iso()
                                                        + " is after " + window.last.iso()
                                                        + " (--to, or the remote's as_of)");
  }
  return window;
}

// Return the ranges each symbol lacks within `window`, grouped so that symbols lacking the same
// range share requests (a first sync: one group; a repeated one: none).
std::vector<Group> missing_work(CacheFiller& filler,
                                const std::vector<std::string>& symbols,
                                query::DateRange window,
                                std::size_t& cached) {
  std::vector<Group> groups;
  for (const auto& symbol : symbols) {
    const auto missing = query::missing_ranges(filler.coverage(symbol), window.first, window.last);
    cached += missing.empty() ? 1 : 0;
    for (const auto& range : missing) {
      auto group = std::find_if(groups.begin(), groups.end(),
                                [&](const Group& g) { return g.range == range; });
      if (group == groups.end()) {
        groups.push_back(Group{range, {}});
        group = std::prev(groups.end());
      }
      group->symbols.push_back(symbol);
    }
  }
  return groups;
}

// Progress on stderr: a bar redrawn in place on a terminal, else one summary line at the end.
class Progress {
public:
  explicit Progress(std::size_t total) : m_total(total), m_bar("sync") {}

  void advance(std::size_t symbols, const FetchStats& stats) {
    m_done += symbols;
    m_bar.show(static_cast<std::int64_t>(m_done), static_cast<std::int64_t>(m_total),
               std::to_string(m_done) + "/" + std::to_string(m_total) + " ranges, "
                 + with_thousands(std::to_string(stats.bars)) + " bars");
  }

  void finish(std::size_t symbols,
              std::size_t cached,
              query::DateRange window,
              const FetchStats& stats) {
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

bool has_code(const Reply& reply, ErrorCode code) {
  const auto error = api::error_from_json(reply.body);
  return error && error->code == code;
}

// Fetch every group in batches of at most `batch` symbols, halving the batch on PLAN_LIMIT; return
// the remote's refusal that ends the sync, if any.
Refusal fetch_groups(CacheFiller& filler,
                     const std::vector<Group>& groups,
                     std::size_t batch,
                     FetchStats& stats,
                     Progress& progress) {
  for (const auto& group : groups) {
    std::size_t next = 0;
    while (next < group.symbols.size()) {
      const std::size_t take = std::min(batch, group.symbols.size() - next);
      const std::vector<std::string> chunk(
          group.symbols.begin() + static_cast<std::ptrdiff_t>(next),
          group.symbols.begin() + static_cast<std::ptrdiff_t>(next + take));
      auto refusal = filler.fetch(chunk, group.range, stats);
      if (refusal && take > 1 && has_code(*refusal, ErrorCode::plan_limit)) {
        batch = take / 2; // the remote's plan takes fewer symbols than we thought
        continue;
      }
      if (refusal && take == 1 && has_code(*refusal, ErrorCode::invalid_symbol)) {
        stats.unknown.push_back(chunk.front());
      } else if (refusal) {
        return refusal;
      }
      next += take;
      progress.advance(take, stats);
    }
  }
  return std::nullopt;
}

int fail(const Error& error, int status) {
  std::cerr << "ashare: error: " << error.message << "\n";
  return status;
}

int run_sync(const SyncArgs& args, const Config& config) {
  if (!config.base_url) {
    return fail(make_error(ErrorCode::invalid_input,
                           "sync needs a remote: give --base-url or set ASHARE_BASE_URL"),
                k_exit_usage);
  }
  if (config.remote.offline) {
    return fail(make_error(ErrorCode::invalid_input, "sync cannot work --offline"), k_exit_usage);
  }
  const auto plan = auth::parse_plan(config.plan);
  if (!plan) {
    return fail(plan.error(), k_exit_usage);
  }
  const auto symbols = collect_symbols(args);
  if (!symbols) {
    return fail(symbols.error(), k_exit_error);
  }
  auto remote = open_remote_transport(config, config.remote);
  store::CacheStore cache(config.cache_db);
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  CacheFiller filler(*remote, cache, *config.base_url, *plan,
                     std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
  const auto as_of = filler.as_of(true);
  if (!as_of || !*as_of) {
    return fail(as_of ? make_error(ErrorCode::invalid_input, *config.base_url + " holds no data")
                      : as_of.error(),
                k_exit_error);
  }
  const auto window = sync_window(args, *plan, **as_of);
  if (!window) {
    return fail(window.error(), k_exit_usage);
  }
  std::size_t cached = 0;
  const auto groups = missing_work(filler, *symbols, *window, cached);
  std::size_t total = 0;
  for (const auto& group : groups) {
    total += group.symbols.size();
  }
  FetchStats stats;
  Progress progress(total);
  const auto batch = static_cast<std::size_t>(auth::plan_limits(*plan).max_symbols);
  const auto refusal = fetch_groups(filler, groups, batch, stats, progress);
  progress.finish(symbols->size(), cached, *window, stats);
  if (refusal) {
    return report_api_error(*refusal);
  }
  for (const auto& symbol : stats.unknown) {
    std::cerr << "ashare: error: INVALID_SYMBOL: unknown symbol \"" << symbol << "\"\n";
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
      ->check(CLI::IsMember({"free", "basic", "pro"}, CLI::ignore_case))
      ->type_name("PLAN");
  return [args](const Config& config) { return run_sync(*args, config); };
}

} // namespace ashare::cli
