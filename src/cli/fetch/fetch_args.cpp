#include "cli/fetch/fetch_args.hpp"

#include "cli/output/report.hpp"
#include "cli/output/table.hpp"
#include "core/domain/clock.hpp"
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

std::string summary_line(const FetchReport& report) {
  std::ostringstream line;
  if (report.end == FetchEnd::up_to_date) {
    line << "up to date";
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
    line << report.requests << (report.requests == 1 ? " call" : " calls");
  }
  line << "; ledger through " << (report.ledger_end ? report.ledger_end->iso() : "none");
  if (report.days_behind > 0) {
    line << ", " << report.days_behind << (report.days_behind == 1 ? " open day" : " open days")
         << " behind " << report.plan->last_completed.iso();
  }
  return line.str();
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
  command.add_option("--pace", args.provider.pace, std::string(pace_help))
      ->type_name("N")->check(CLI::Range(0, 100000))->default_val(pace);
}

Result<fetch::FetchOptions> fetch_options(const FetchArgs& args) {
  fetch::FetchOptions options;
  for (const auto& text : args.symbols) {
    auto symbol = domain::parse_symbol(text);
    if (!symbol) {
      return symbol.error();
    }
    options.symbols.push_back(symbol->str());
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
