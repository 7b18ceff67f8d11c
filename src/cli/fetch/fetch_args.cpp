#include "cli/fetch/fetch_args.hpp"

#include "cli/output/report.hpp"
#include "cli/output/table.hpp"
#include "core/domain/clock.hpp"
#include "core/domain/kind.hpp"
#include "core/domain/symbol.hpp"
#include "core/domain/text.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <sstream>
#include <tuple>

namespace ashare::cli {
namespace {

using fetch::FetchEnd;
using fetch::FetchReport;

std::string range_of(const std::vector<domain::Date>& days) {
  if (days.empty()) {
    return "";
  }
  return days.size() == 1 ? days.front().iso() : days.front().iso() + ".." + days.back().iso();
}

void print_plan(const FetchReport& report, std::string_view source) {
  const auto& plan = *report.plan;
  std::cout << "plan: " << plan.days.size() << " open days " << range_of(plan.days)
            << " (last completed day " << plan.last_completed.iso() << "), at least "
            << report.estimated_requests << " calls to " << source << "; nothing fetched (--dry-run)\n";
  for (const auto day : plan.days) {
    std::cout << day.iso() << "\n";
  }
}

std::string calls_of(const FetchReport& report) {
  return std::to_string(report.requests) + (report.requests == 1 ? " call" : " calls");
}

std::string snapshots_of(const FetchReport& report) {
  const auto count = report.snapshots_stored;
  return std::to_string(count) + (count == 1 ? " membership snapshot, " : " membership snapshots, ");
}

std::string summary_line(const FetchReport& report) {
  std::ostringstream line;
  if (report.end == FetchEnd::up_to_date) {
    line << "up to date";
    if (report.snapshots_stored > 0) { // D20: an index newly named for its membership
      line << ", " << snapshots_of(report) << calls_of(report);
    }
  } else {
    line << "fetched " << report.days_stored << (report.days_stored == 1 ? " day" : " days");
    if (report.days_stored > 0 && report.plan) {
      const std::vector<domain::Date> done(report.plan->days.begin(),
                                           report.plan->days.begin()
                                               + static_cast<std::ptrdiff_t>(report.days_stored));
      line << " (" << range_of(done) << ")";
    }
    line << ", " << with_thousands(std::to_string(report.rows)) << " bars, ";
    if (report.absent_marked > 0) {
      line << report.absent_marked << " absent at the source, ";
    }
    if (report.symbols_stored > 0) {
      line << report.symbols_stored << (report.symbols_stored == 1 ? " symbol, " : " symbols, ");
    }
    if (report.snapshots_stored > 0) {
      line << snapshots_of(report);
    }
    line << calls_of(report);
  }
  line << "; ledger through " << (report.ledger_end ? report.ledger_end->iso() : "none");
  if (report.days_behind > 0) {
    line << ", " << report.days_behind << (report.days_behind == 1 ? " open day" : " open days")
         << " behind " << report.plan->last_completed.iso();
  }
  return line.str();
}

// Return `text` (a comma-separated list from `where`) as canonical index symbols, or a usage error
// naming the first that is no symbol or no index (D20).
Result<std::vector<std::string>> parse_indices(std::string_view text, std::string_view where) {
  std::vector<std::string> indices;
  for (const auto& item : split_comma_list(text)) {
    auto symbol = domain::parse_symbol(item);
    if (!symbol) {
      return make_error(ErrorCode::invalid_parameter, std::string(where) + ": " + symbol.error().message);
    }
    const auto kind = domain::kind_of_code(symbol->str());
    if (!kind || *kind != domain::Kind::index) {
      return make_error(ErrorCode::invalid_parameter,
                        std::string(where) + ": " + symbol->str() + " is not an index (D20: SH 000xxx, SZ 399xxx, BJ 899xxx)");
    }
    indices.push_back(symbol->str());
  }
  return indices;
}

// Set the indices whose membership `options` takes (D20): those of --members, else ASHARE_MEMBERS
// or `members`, else D20's three.
Status choose_members(const FetchArgs& args, const Config& config, fetch::FetchOptions& options) {
  if (!args.members && !config.sources.members) {
    options.members.assign(fetch::k_default_members.begin(), fetch::k_default_members.end());
    return Ok{};
  }
  auto members = args.members ? parse_indices(*args.members, "--members")
                              : parse_indices(*config.sources.members, "ASHARE_MEMBERS or members");
  if (!members) {
    return members.error();
  }
  options.members = std::move(*members);
  return Ok{};
}

// Set the universe `options` takes when it names no symbol (D20): the indices of --indices, else
// ASHARE_INDICES or `indices`, else D20's default list; the kinds of --kind; the membership of
// choose_members. With symbols named, each is taken whatever its kind: --indices, --kind and
// --members are then usage errors, not ignored.
Status choose_universe(const FetchArgs& args, const Config& config, fetch::FetchOptions& options) {
  if (!options.symbols.empty()) {
    if (args.indices || args.kinds || args.members) {
      const char* option = args.indices ? "--indices" : args.kinds ? "--kind" : "--members";
      return make_error(ErrorCode::invalid_parameter, std::string(option)
                                                          + " chooses the market's symbols: a fetch naming symbols takes them whatever their kind");
    }
    return Ok{};
  }
  if (auto members = choose_members(args, config, options); !members) {
    return members.error();
  }
  if (args.kinds) {
    auto kinds = domain::parse_kind_list(*args.kinds);
    if (!kinds) {
      return make_error(ErrorCode::invalid_parameter, "--kind: " + kinds.error().message);
    }
    options.kinds = std::move(*kinds);
  }
  if (!args.indices && !config.sources.indices) {
    options.indices.assign(fetch::k_default_indices.begin(), fetch::k_default_indices.end());
    return Ok{};
  }
  auto indices = args.indices ? parse_indices(*args.indices, "--indices")
                              : parse_indices(*config.sources.indices, "ASHARE_INDICES or indices");
  if (!indices) {
    return indices.error();
  }
  options.indices = std::move(*indices);
  return Ok{};
}

} // namespace

void add_common_fetch_options(CLI::App& command, FetchArgs& args, int pace, std::string_view pace_help) {
  command.add_option("SYMBOL", args.symbols, "Fetch these symbols only (default: the whole market)");
  command.add_option("--from", args.from, "First day (default: the first ledger day, else 250 open days back)")
      ->type_name("DATE");
  command.add_option("--to", args.to, "Last day (default and at most: the last completed trading day)")
      ->type_name("DATE");
  command.add_flag("--refetch", args.refetch, "Ask again for days the ledger holds (source revisions)");
  command.add_flag("--skip-invalid", args.skip_invalid, "Write the rest of a day whose bars fail a check, and leave those missing");
  command.add_flag("--dry-run", args.provider.dry_run, "Print the plan (days and calls) and touch nothing");
  command.add_flag("--repair", args.repair,
                   "Ask again for the missing bars that `ashare gaps` lists, and mark what the source lacks absent_at_source");
  command.add_flag("--quiet", args.quiet, "Print nothing on success (for cron)");
  command.add_option("--max-lag", args.max_lag, "Exit 1 when the store is more than N open days behind")
      ->type_name("N")->check(CLI::NonNegativeNumber);
  command.add_option("--indices", args.indices,
                     "Indices to take besides the market, SYMBOL,... (default ASHARE_INDICES, indices, D20's eight)")
      ->type_name("LIST");
  command.add_option("--members", args.members,
                     "Indices whose membership to take, SYMBOL,... (Tushare only; default ASHARE_MEMBERS, members, "
                     "000300.SH,000905.SH,000852.SH)")
      ->type_name("LIST");
  command.add_option("--kind", args.kinds, "Kinds of symbol to take: stock, index, fund, comma-separated (default: every kind)")
      ->type_name("LIST");
  command.add_option("--pace", args.provider.pace, std::string(pace_help))
      ->type_name("N")->check(CLI::Range(0, 100000))->default_val(pace);
}

Result<fetch::FetchOptions> fetch_options(const FetchArgs& args, const Config& config) {
  fetch::FetchOptions options;
  for (const auto& text : args.symbols) {
    auto symbol = domain::parse_symbol(text);
    if (!symbol) {
      return symbol.error();
    }
    if (auto kind = domain::kind_of_code(symbol->str()); !kind) {
      return kind.error(); // D20: a code kept out is never fetched
    }
    options.symbols.push_back(symbol->str());
  }
  if (auto chosen = choose_universe(args, config, options); !chosen) {
    return chosen.error();
  }
  for (const auto& [text, slot, name] :
       {std::tuple{&args.from, &options.from, "--from"}, std::tuple{&args.to, &options.to, "--to"}}) {
    auto date = domain::parse_optional_iso_date(*text, name);
    if (!date) {
      return date.error();
    }
    *slot = *date;
  }
  auto now = domain::current_instant();
  if (!now) {
    return now.error();
  }
  options.now = *now;
  options.refetch = args.refetch;
  options.skip_invalid = args.skip_invalid;
  options.dry_run = args.provider.dry_run;
  options.repair = args.repair;
  options.max_lag = args.max_lag;
  return options;
}

int report_fetch(const FetchReport& report, const FetchArgs& args, std::string_view source) {
  if (report.end == FetchEnd::another_running) {
    note(report.message); // D18: cron's second run is no failure
    return k_exit_ok;
  }
  for (const auto& warning : report.warnings) {
    warn(domain::printable(warning));
  }
  if (report.plan && report.plan->gap_from) {
    note("the store's bars end before " + report.plan->start.iso() + ": `--from "
         + report.plan->gap_from->iso() + "` fetches the days between");
  }
  if (report.end == FetchEnd::planned) {
    print_plan(report, source);
    return k_exit_ok;
  }
  const int status = fetch::exit_status(report.end);
  if (status != k_exit_ok) {
    if (report.plan && report.days_stored > 0) {
      std::cerr << summary_line(report) << "\n";
    }
    return fail(domain::printable(report.message), status);
  }
  if (report.end == FetchEnd::not_yet_published) {
    note(domain::printable(report.message));
  }
  if (!args.quiet) {
    std::cout << summary_line(report) << "\n";
  }
  return k_exit_ok;
}

} // namespace ashare::cli
