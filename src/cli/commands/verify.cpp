// ashare verify --against PROVIDER [SYMBOL...] [--from DATE] [--to DATE]: ask a provider for the
// stored days again, write nothing, and list every difference per symbol and day (issue 33; the
// rules are core/fetch/verify.hpp's) as a table, CSV or JSON with a summary. Exit 0 when the two
// agree, 1 when they do not, 3 and 4 as fetch (the source kept failing; quota or token).
#include "cli/commands/query_run.hpp"
#include "cli/fetch/providers.hpp"
#include "core/domain/clock.hpp"
#include "core/domain/symbol.hpp"
#include "core/domain/text.hpp"
#include "core/fetch/plan.hpp"
#include "core/fetch/verify.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct VerifyArgs {
  std::string against;
  std::vector<std::string> symbols;
  std::optional<std::string> from;
  std::optional<std::string> to;
  ProviderArgs provider; // its own options and the pace
  QueryOutputArgs output;
};

// The window of `args` on `store`: --from and --to, else the last 20 ledger days (or open days
// up to as_of); one bound given, the other from that default.
Result<std::pair<domain::Date, domain::Date>> window_of(const VerifyArgs& args, store::BarStore& store) {
  const auto from = domain::parse_optional_iso_date(args.from, "--from");
  const auto to = domain::parse_optional_iso_date(args.to, "--to");
  if (!from || !to) {
    return from ? to.error() : from.error();
  }
  const auto fallback = fetch::default_verify_window(store);
  if ((!*from || !*to) && !fallback) {
    return make_error(ErrorCode::invalid_input, "the store holds no bars to verify; give --from and --to");
  }
  const auto first = from->value_or(fallback ? fallback->first : domain::Date{});
  const auto last = to->value_or(fallback ? std::max(fallback->second, first) : first);
  if (last < first) {
    return make_error(ErrorCode::invalid_parameter, "--from " + first.iso() + " is after --to " + last.iso());
  }
  return std::pair{first, last};
}

std::string summary_line(const fetch::VerifyReport& report) {
  std::string line = "verify against " + report.provider + " " + report.from.iso() + ".." + report.to.iso() + ": "
                     + std::to_string(report.symbols) + (report.symbols == 1 ? " symbol, " : " symbols, ")
                     + with_thousands(std::to_string(report.days)) + " bars: ";
  if (report.agree()) {
    return line + "they agree";
  }
  line += with_thousands(std::to_string(report.findings.size()))
          + (report.findings.size() == 1 ? " difference" : " differences");
  std::string counts;
  for (const auto& [field, count] : report.counts) {
    counts += (counts.empty() ? " (" : ", ") + field + " " + std::to_string(count);
  }
  return line + counts + ")";
}

void print_report(const fetch::VerifyReport& report, Format format, bool no_header) {
  switch (format) {
  case Format::table: {
    std::vector<std::vector<std::string>> rows;
    for (const auto& finding : report.findings) {
      rows.push_back({finding.symbol, finding.day.iso(), finding.field, finding.stored.empty() ? "-" : finding.stored,
                      finding.source.empty() ? "-" : finding.source});
    }
    if (!rows.empty()) {
      print_table(std::cout, {{"SYMBOL"}, {"DATE"}, {"FIELD"}, {"STORED", Align::right}, {"SOURCE", Align::right}}, rows);
    }
    std::cerr << summary_line(report) << "\n";
    return;
  }
  case Format::csv:
    if (!no_header) {
      std::cout << "symbol,date,field,stored,source\n";
    }
    for (const auto& finding : report.findings) {
      std::cout << finding.symbol << ',' << finding.day.iso() << ',' << finding.field << ',' << finding.stored
                << ',' << finding.source << "\n";
    }
    std::cerr << summary_line(report) << "\n";
    return;
  case Format::json:
  case Format::ndjson: {
    nlohmann::json differences = nlohmann::json::array();
    for (const auto& finding : report.findings) {
      nlohmann::json item{{"symbol", finding.symbol}, {"date", finding.day.iso()}, {"field", finding.field},
                          {"stored", finding.stored.empty() ? nlohmann::json() : nlohmann::json(finding.stored)},
                          {"source", finding.source.empty() ? nlohmann::json() : nlohmann::json(finding.source)}};
      if (format == Format::ndjson) {
        std::cout << item.dump() << "\n";
      }
      differences.push_back(std::move(item));
    }
    if (format == Format::json) {
      nlohmann::json counts = nlohmann::json::object();
      for (const auto& [field, count] : report.counts) {
        counts[field] = count;
      }
      const nlohmann::json summary{{"provider", report.provider}, {"from", report.from.iso()},
                                   {"to", report.to.iso()},       {"symbols", report.symbols},
                                   {"bars", report.days},         {"agree", report.agree()},
                                   {"counts", counts}};
      std::cout << nlohmann::json{{"differences", differences}, {"summary", summary}}.dump() << "\n";
    } else {
      std::cerr << summary_line(report) << "\n";
    }
    return;
  }
  }
}

// Return the symbols of `args`, canonical, or a usage error.
Result<std::vector<std::string>> symbols_of(const VerifyArgs& args) {
  std::vector<std::string> symbols;
  for (const auto& text : args.symbols) {
    auto symbol = domain::parse_symbol(text);
    if (!symbol) {
      return symbol.error();
    }
    symbols.push_back(symbol->str());
  }
  return symbols;
}


// Ask `provider` for the window and compare: exit 0 when they agree, 1 when not, 3 or 4 as fetch.
int verify_against(fetch::Provider& provider, store::BarStore& store, const std::vector<std::string>& symbols,
                   std::pair<domain::Date, domain::Date> window, domain::Date today, const VerifyArgs& args,
                   Format format) {
  const auto answer = fetch::ask_provider(provider, store, symbols, window.first, window.second, today);
  for (const auto& warning : answer.bars.warnings) {
    warn(domain::printable(warning));
  }
  if (answer.end != fetch::FetchEnd::done) {
    return fail(domain::printable(answer.message), fetch::exit_status(answer.end));
  }
  const auto report = fetch::compare_with_provider(store, answer.bars, symbols, window.first, window.second);
  print_report(report, format, args.output.no_header);
  return report.agree() ? k_exit_ok : k_exit_error;
}

int run_verify(const VerifyArgs& args, const Config& config) {
  if (config.base_url) {
    return fail("verify reads the local store; run it without --base-url (remote mode)", k_exit_usage);
  }
  const auto& spec = *find_provider(args.against);
  if (const auto applies = check_options_apply(spec, args.provider); !applies) {
    return fail(applies.error().message, k_exit_usage); // before anything is asked
  }
  const auto format = choose_format(config.output_format);
  const auto symbols = symbols_of(args);
  const auto now = domain::current_instant();
  if (!format || !symbols || !now) {
    return fail(!format ? format.error().message : !symbols ? symbols.error().message : now.error().message,
                k_exit_usage);
  }
  auto opened = spec.open(args.provider, config);
  if (!opened) {
    return fail(opened.error().message, k_exit_usage);
  }
  if (!store::is_postgres_locator(config.db.string()) && !std::filesystem::exists(config.db)) {
    return fail("no store at " + config.db.string() + "; import or fetch data first");
  }
  const auto store = store::open_bar_store(config.db.string());
  const auto window = window_of(args, *store);
  if (!window) {
    return fail(window.error().message,
                window.error().code == ErrorCode::invalid_parameter ? k_exit_usage : k_exit_error);
  }
  return verify_against((*opened)->provider(), *store, *symbols, *window, fetch::utc8_day(*now).date, args,
                        *format);
}

// The --pace help: every provider's default.
std::string pace_help() {
  std::string defaults;
  for (const auto& spec : provider_table()) {
    defaults += std::string(spec.name) + " " + std::to_string(spec.default_pace) + ", ";
  }
  return "Calls a minute at most (" + defaults + "0: no pace)";
}

} // namespace

Action setup_verify(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<VerifyArgs>();
  std::vector<std::string> names;
  for (const auto& spec : provider_table()) {
    names.emplace_back(spec.name);
  }
  command.add_option("--against", args->against, "The provider to ask again: tdx or tushare")
      ->required()
      ->check(CLI::IsMember(names))
      ->type_name("PROVIDER");
  command.add_option("SYMBOL", args->symbols, "Only these symbols (default: every stored one and the source's)");
  command.add_option("--from", args->from, "First day (default: 20 ledger days back from the last)")->type_name("DATE");
  command.add_option("--to", args->to, "Last day (default: the last ledger day, else as_of)")->type_name("DATE");
  for (const auto option : every_provider_option()) {
    add_provider_option(command, option, args->provider, true);
  }
  command.add_option("--pace", args->provider.pace, pace_help())->type_name("N")->check(CLI::Range(0, 100000));
  add_output_options(command, flags, args->output);
  command.footer(
      "Differences: raw prices beyond 0.005 CNY; volume and turnover beyond the coarser side's\n"
      "precision (TDX sends float32: about 7 digits); factor steps whose close[t-1] / step differ\n"
      "by more than 0.005 CNY (plus the rounding of Tushare's 4-decimal adj_factor); a bar on one\n"
      "side only. Against the provider a symbol was fetched from, prices, volume and turnover\n"
      "compare exactly (a revision check). Nothing is written. Exit status: 0 they agree, 1 they\n"
      "do not, 2 usage, 3 the source kept failing, 4 Tushare's quota or token.");
  return [args](const Config& config) { return run_verify(*args, config); };
}

} // namespace ashare::cli
