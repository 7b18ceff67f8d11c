// ashare info: where the data comes from and how current it is.
#include "cli/commands/query_run.hpp"
#include "cli/remote/remote_gateway.hpp"
#include "core/domain/clock.hpp"
#include "core/domain/kind.hpp"
#include "core/fetch/ledger_status.hpp"
#include "core/api/answer.hpp"
#include "core/remote/coverage.hpp"
#include "core/remote/reply.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/locator.hpp"
#include "core/store/cache_store.hpp"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string_view>

namespace ashare::cli {
namespace {

std::string store_size(const std::filesystem::path& path) {
  std::error_code error;
  std::uintmax_t bytes = std::filesystem::file_size(path, error);
  if (error) {
    return "absent";
  }
  for (const char* suffix : {"-wal", "-shm"}) {
    bytes += std::filesystem::file_size(path.string() + suffix, error);
    if (error) {
      error.clear();
    }
  }
  return with_thousands(std::to_string(bytes)) + " bytes";
}

// Return how `info` shows the data store at `locator`: a file with its size, a database server's
// URI without its password.
std::string store_text(const std::string& locator) {
  if (store::is_postgres_locator(locator)) {
    return store::redacted_locator(locator) + " (PostgreSQL)";
  }
  return locator + " (" + store_size(locator) + ")";
}

// Return the merged ranges of `rows` as "FIRST..LAST, ...".
std::string ranges_text(const std::vector<store::CoveredRange>& rows) {
  std::vector<remote::DateRange> ranges;
  for (const auto& row : rows) {
    ranges.push_back({row.first, row.last});
  }
  std::string out;
  for (const auto& range : remote::merge_ranges(std::move(ranges))) {
    out += (out.empty() ? "" : ", ") + range.first.iso() + ".." + range.last.iso();
  }
  return out.empty() ? "none" : out;
}

// Print what the cache holds for the remote of `config`; an absent cache is not created.
void print_cache(const Config& config) {
  std::cout << "cache: " << config.cache_db.string() << " (" << store_size(config.cache_db)
            << ")\n";
  std::error_code error;
  if (!std::filesystem::exists(config.cache_db, error)) {
    return;
  }
  store::CacheStore cache(config.cache_db);
  const auto symbols = cache.load_symbols(*config.base_url);
  std::int64_t bars = 0;
  for (const auto& symbol : symbols) {
    bars += symbol.bar_count;
  }
  const auto remote = cache.load_remote(*config.base_url);
  std::cout << "cached as_of: " << (remote.as_of ? remote.as_of->iso() : "none") << "\n"
            << "cached symbols: " << symbols.size() << "\n"
            << "cached bars: " << bars << "\n";
  for (const auto& symbol : symbols) {
    std::cout << "cached " << symbol.symbol << ": " << symbol.bar_count << " bars, "
              << ranges_text(symbol.coverage) << "\n";
  }
}

int run_remote_info(const Config& config) {
  std::cout << "mode: remote\n"
            << "base_url: " << *config.base_url << "\n"
            << "api_key: " << (config.api_key ? "set" : "not set") << "\n";
  if (!config.remote.offline) {
    // /healthz costs nothing: ask the remote itself, not the cache's view of it.
    const auto answered =
      remote::ask(*open_remote_gateway(config, config.remote), api::HealthRequest{});
    if (const auto* error = std::get_if<Error>(&answered)) {
      return fail_with(*error);
    }
    const auto& as_of = std::get<api::HealthResponse>(answered).dataset.as_of;
    std::cout << "as_of: " << (as_of ? as_of->iso() : "none") << "\n";
  }
  print_cache(config);
  return k_exit_ok;
}

// D18, D19: how current the store is: the calendar, each provider's ledger, the listings.
void print_ledger(store::BarStore& store) {
  const auto now = domain::current_instant();
  const auto status = fetch::ledger_status(store, now ? *now : std::chrono::system_clock::now());
  std::cout << "calendar: "
            << (status.calendar ? status.calendar->first.iso() + ".." + status.calendar->second.iso()
                                : std::string("none"))
            << "\n"
            << "last completed trading day: "
            << (status.last_completed ? status.last_completed->iso()
                                      : std::string("unknown (past the calendar's end)"))
            << "\n";
  for (const auto& provider : status.providers) {
    std::cout << "ledger " << provider.provider << ": "
              << (provider.last_whole ? "whole market through " + provider.last_whole->iso() + " ("
                                            + std::to_string(provider.whole_days) + " days), "
                                            + std::to_string(provider.days_behind)
                                            + (provider.days_behind == 1 ? " open day behind" : " open days behind")
                                      : std::string("no whole-market day"));
    for (const auto& [kind, day] : provider.last_whole_of_kind) {
      std::cout << "; " << domain::kind_name(kind) << " days through " << day.iso();
    }
    if (provider.symbol_rows > 0) {
      std::cout << "; " << provider.symbol_rows
                << " (day, symbol) rows of fetches naming symbols or of symbols staged by a run cut short";
    }
    std::cout << "\n";
  }
  if (status.providers.empty()) {
    std::cout << "ledger: none (nothing fetched; `ashare fetch tushare` or `ashare fetch tdx` keeps the store current)\n";
  }
  // D19: codes that changed answer as one series with the code they became.
  const auto aliases = store.market().load_aliases();
  std::int64_t joined = 0;
  for (const auto& alias : aliases) {
    joined += store.find_symbol(alias.old_symbol) && store.find_symbol(alias.new_symbol) ? 1 : 0;
  }
  std::cout << "aliases: " << aliases.size() << " (" << joined << " with bars under both codes)\n";
  std::cout << "listings: " << status.listings << " (" << status.delisted << " delisted)\n"
            << "bars after as_of: " << status.bars_after_as_of << "\n";
  if (status.survivorship_biased) {
    std::cout << "survivorship: biased (fed by TDX alone, which lists no delisted codes; `ashare fetch "
                 "tushare` or an import of delisted symbols completes it)\n";
  }
}

// D20: "stock 1 (484 bars), index 1 (972 bars), fund 0 (0 bars)", and the symbols of codes D20
// keeps out (stored before it) when there are any.
std::string kinds_text(const std::vector<store::SymbolInfo>& symbols) {
  std::map<std::optional<domain::Kind>, std::pair<std::int64_t, std::int64_t>> counts;
  for (const auto& info : symbols) {
    auto& [count, bars] = counts[info.kind];
    ++count;
    bars += info.bar_count;
  }
  std::string out;
  const auto add = [&out](std::string_view name, std::pair<std::int64_t, std::int64_t> count) {
    out += (out.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(count.first) + " ("
           + with_thousands(std::to_string(count.second)) + " bars)";
  };
  for (const auto kind : domain::k_kinds) {
    add(domain::kind_name(kind), counts[kind]);
  }
  if (const auto kept_out = counts.find(std::nullopt); kept_out != counts.end()) {
    add("kept out (D20)", kept_out->second);
  }
  return out;
}

int run_info(const Config& config) {
  if (config.base_url) {
    return run_remote_info(config);
  }
  const auto store = store::open_bar_store(config.db.string());
  const auto dataset = store->load_dataset_info();
  const auto symbols = store->load_symbols();
  std::int64_t bars = 0;
  for (const auto& info : symbols) {
    bars += info.bar_count;
  }
  std::cout << "mode: local\n"
            << "store: " << store_text(config.db.string()) << "\n"
            << "keys: " << store::redacted_locator(config.keys_db.string()) << "\n"
            << "symbols: " << symbols.size() << "\n"
            << "kinds: " << kinds_text(symbols) << "\n"
            << "bars: " << bars << "\n"
            << "as_of: " << (dataset.as_of ? dataset.as_of->iso() : "none") << "\n"
            << "source: " << (dataset.source.empty() ? "none" : dataset.source) << "\n";
  print_ledger(*store);
  return k_exit_ok;
}

} // namespace

Action setup_info(CLI::App&, GlobalFlags&) {
  return [](const Config& config) { return run_info(config); };
}

} // namespace ashare::cli
