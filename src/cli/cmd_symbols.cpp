// ashare symbols: the symbols of the local store, with their first and last date and bar count.
#include "cli/query_run.hpp"
#include "core/store/bar_store.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace ashare::cli {
namespace {

struct SymbolsArgs {
  bool names = false; // one symbol per line, for shell completion
  QueryOutputArgs output;
};

int run_symbols(const SymbolsArgs& args, const Config& config) {
  if (config.base_url) {
    std::cerr << "ashare: error: symbols lists the local store; remote mode has no symbol list\n";
    return k_exit_error;
  }
  auto format = choose_format(config.format);
  if (!format) {
    std::cerr << "ashare: error: " << format.error().message << "\n";
    return k_exit_usage;
  }
  store::BarStore store(config.db);
  const auto symbols = store.load_symbols();
  if (args.names) {
    for (const auto& info : symbols) {
      std::cout << info.symbol << "\n";
    }
    return k_exit_ok;
  }
  switch (*format) {
  case Format::table: {
    std::vector<std::vector<std::string>> rows;
    for (const auto& info : symbols) {
      rows.push_back({info.symbol, info.first_date.iso(), info.last_date.iso(),
                      with_thousands(std::to_string(info.bar_count))});
    }
    print_table(std::cout, {{"SYMBOL"}, {"FIRST"}, {"LAST"}, {"BARS", Align::right}}, rows);
    break;
  }
  case Format::csv:
    if (!args.output.no_header) {
      std::cout << "symbol,first_date,last_date,bars\n";
    }
    for (const auto& info : symbols) {
      std::cout << info.symbol << ',' << info.first_date.iso() << ',' << info.last_date.iso()
                << ',' << info.bar_count << "\n";
    }
    break;
  case Format::json:
  case Format::ndjson: {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& info : symbols) {
      nlohmann::json item{{"symbol", info.symbol},
                          {"first_date", info.first_date.iso()},
                          {"last_date", info.last_date.iso()},
                          {"bars", info.bar_count}};
      if (*format == Format::ndjson) {
        std::cout << item.dump() << "\n";
      }
      all.push_back(std::move(item));
    }
    if (*format == Format::json) {
      std::cout << all.dump() << "\n";
    }
    break;
  }
  }
  return k_exit_ok;
}

} // namespace

Action setup_symbols(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<SymbolsArgs>();
  command.add_flag("--names", args->names, "Only the symbols, one per line")->group("");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_symbols(*args, config); };
}

} // namespace ashare::cli
