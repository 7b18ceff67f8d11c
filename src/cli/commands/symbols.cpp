// ashare symbols: the symbols of the local store, with their first and last date, bar count and
// (D20) kind and listed name, `--kind` choosing kinds; with the hidden --names, only the names,
// for shell completion (also in remote mode, from the cache).
#include "cli/commands/query_run.hpp"
#include "core/domain/kind.hpp"
#include "core/query/series.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/cache_store.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ashare::cli {
namespace {

struct SymbolsArgs {
  bool names = false; // one symbol per line, for shell completion
  std::optional<std::string> kinds; // D20: --kind LIST
  QueryOutputArgs output;
};

// Print the symbol names for shell completion, one a line: the local store's or, in remote mode,
// those the cache holds for the base URL. A completion must be quick and harmless, so this never
// touches the network and never creates a store: with nothing to list it prints nothing.
int print_names(const Config& config) {
  const auto& path = config.base_url ? config.cache_db : config.db;
  const bool on_server = !config.base_url && store::is_postgres_locator(path.string());
  std::error_code error;
  if (!on_server && !std::filesystem::exists(path, error)) {
    return k_exit_ok;
  }
  std::vector<std::string> names;
  if (config.base_url) {
    names = store::CacheStore(path).load_symbol_names(*config.base_url);
  } else {
    for (const auto& info : store::open_bar_store(path.string())->load_symbols()) {
      names.push_back(info.symbol);
    }
  }
  for (const auto& name : names) {
    std::cout << name << "\n";
  }
  return k_exit_ok;
}

// Return what a symbol's factors mean, e.g. "pre_close_chain" or "none, adjusted input".
std::string factors_text(const store::SymbolInfo& info) {
  std::string text = info.factor_origin.empty() ? "unknown" : info.factor_origin;
  if (info.adjusted) {
    text += ", adjusted input";
  }
  return text;
}

// D19: the other code of a code that changed (its bars answer as one series with it), or "".
using AliasOf = std::function<std::string(const std::string& symbol)>;

// D20: the name a provider's list gives `symbol`, or "".
using NameOf = std::function<std::string(const std::string& symbol)>;

// Return the word of `info`'s kind, or "" for a code D20 keeps out (stored before D20).
std::string kind_text(const store::SymbolInfo& info) {
  return info.kind ? std::string(domain::kind_name(*info.kind)) : std::string();
}

void print_symbols_table(const std::vector<store::SymbolInfo>& symbols, const AliasOf& alias_of) {
  // D20: KIND after SYMBOL; the name is in CSV and JSON (a table row stays one line).
  const bool any_alias = std::any_of(symbols.begin(), symbols.end(),
                                     [&](const auto& info) { return !alias_of(info.symbol).empty(); });
  std::vector<std::vector<std::string>> rows;
  for (const auto& info : symbols) {
    rows.push_back({info.symbol, kind_text(info), info.first_date.iso(), info.last_date.iso(),
                    with_thousands(std::to_string(info.bar_count)), info.source, factors_text(info)});
    if (any_alias) {
      rows.back().push_back(alias_of(info.symbol));
    }
  }
  std::vector<TableColumn> columns{{"SYMBOL"}, {"KIND"}, {"FIRST"}, {"LAST"}, {"BARS", Align::right}, {"SOURCE"}, {"FACTORS"}};
  if (any_alias) {
    columns.push_back({"ALIAS"});
  }
  print_table(std::cout, columns, rows);
}

void print_symbols_csv(const std::vector<store::SymbolInfo>& symbols,
                       const AliasOf& alias_of,
                       const NameOf& name_of,
                       bool no_header) {
  if (!no_header) {
    std::cout << "symbol,first_date,last_date,bars,source,factor_origin,adjusted_input,alias,kind,"
                 "name\n";
  }
  for (const auto& info : symbols) {
    std::cout << info.symbol << ',' << info.first_date.iso() << ',' << info.last_date.iso() << ','
              << info.bar_count << ',' << csv_field(info.source) << ',' << info.factor_origin
              << ',' << (info.adjusted ? "true" : "false") << ',' << alias_of(info.symbol) << ','
              << kind_text(info) << ',' << csv_field(name_of(info.symbol)) << "\n";
  }
}

// JSON: one array; ndjson: an object a line.
void print_symbols_json(const std::vector<store::SymbolInfo>& symbols,
                        const AliasOf& alias_of,
                        const NameOf& name_of,
                        bool one_a_line) {
  nlohmann::json all = nlohmann::json::array();
  for (const auto& info : symbols) {
    nlohmann::json item{{"symbol", info.symbol},
                        {"first_date", info.first_date.iso()},
                        {"last_date", info.last_date.iso()},
                        {"bars", info.bar_count},
                        {"source", info.source},
                        {"factor_origin", info.factor_origin},
                        {"adjusted_input", info.adjusted}};
    const auto alias = alias_of(info.symbol);
    item["alias"] = alias.empty() ? nlohmann::json() : nlohmann::json(alias);
    item["kind"] = info.kind ? nlohmann::json(kind_text(info)) : nlohmann::json();
    item["name"] = name_of(info.symbol);
    if (one_a_line) {
      std::cout << item.dump() << "\n";
    }
    all.push_back(std::move(item));
  }
  if (!one_a_line) {
    std::cout << all.dump() << "\n";
  }
}

// D20: keep the symbols of `kinds` (every symbol when nullopt).
void keep_kinds(std::vector<store::SymbolInfo>& symbols,
                const std::optional<std::vector<domain::Kind>>& kinds) {
  if (!kinds) {
    return;
  }
  std::erase_if(symbols, [&kinds](const store::SymbolInfo& info) {
    return !info.kind || std::find(kinds->begin(), kinds->end(), *info.kind) == kinds->end();
  });
}

// D20: the listings' names, by symbol.
NameOf listed_names(store::BarStore& store) {
  auto names = std::make_shared<std::map<std::string, std::string>>();
  for (auto& listing : store.market().load_listings()) {
    names->emplace(std::move(listing.symbol), std::move(listing.name));
  }
  return [names](const std::string& symbol) {
    const auto found = names->find(symbol);
    return found == names->end() ? std::string() : found->second;
  };
}

int run_symbols(const SymbolsArgs& args, const Config& config) {
  if (args.names) {
    return print_names(config);
  }
  if (config.base_url) {
    return fail("symbols lists the local store; remote mode has no symbol list");
  }
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  std::optional<std::vector<domain::Kind>> kinds;
  if (args.kinds) {
    auto parsed = domain::parse_kind_list(*args.kinds);
    if (!parsed) {
      return fail(parsed.error().message, k_exit_usage);
    }
    kinds = std::move(*parsed);
  }
  const auto store = store::open_bar_store(config.db.string());
  store::ReadTransaction snapshot(*store);
  auto symbols = store->load_symbols();
  keep_kinds(symbols, kinds);
  const auto name_of = listed_names(*store);
  // D19: the other code of a code that changed (its bars answer as one series with it).
  const query::Aliases aliases(store->market().load_aliases());
  const AliasOf alias_of = [&aliases](const std::string& symbol) { return aliases.partner(symbol).value_or(""); };
  switch (*format) {
  case Format::table:
    print_symbols_table(symbols, alias_of);
    break;
  case Format::csv:
    print_symbols_csv(symbols, alias_of, name_of, args.output.no_header);
    break;
  case Format::json:
  case Format::ndjson:
    print_symbols_json(symbols, alias_of, name_of, *format == Format::ndjson);
    break;
  }
  return k_exit_ok;
}

} // namespace

Action setup_symbols(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<SymbolsArgs>();
  // Hidden from --help (CLI11: the empty group): an interface for the completions, not for people.
  command.add_flag("--names", args->names, "Only the symbols, one per line")->group("");
  command.add_option("--kind", args->kinds, "Only these kinds: stock, index, fund, comma-separated")
    ->type_name("LIST");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_symbols(*args, config); };
}

} // namespace ashare::cli
