// ashare remove SYMBOL [FROM TO]: delete a symbol's bars, or a window of them, in one transaction,
// so that bad data can be replaced.
#include "cli/commands/command.hpp"
#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/store/bar_store.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct RemoveArgs {
  std::string symbol;
  std::optional<std::string> from;
  std::optional<std::string> to;
};

int run_remove(const RemoveArgs& args, const Config& config) {
  auto symbol = domain::parse_symbol(args.symbol);
  if (!symbol) {
    return fail(symbol.error().message, k_exit_usage);
  }
  if (args.from.has_value() != args.to.has_value()) {
    return fail("give both FROM and TO, or neither (all bars)", k_exit_usage);
  }
  domain::Date from = domain::Date::from_ymd(1, 1, 1).value();
  domain::Date to = domain::Date::from_ymd(9999, 12, 31).value();
  if (args.from) {
    auto first = domain::parse_iso_date(*args.from, "FROM");
    auto last = domain::parse_iso_date(*args.to, "TO");
    if (!first || !last || *first > *last) {
      return fail(!first  ? first.error().message
                  : !last ? last.error().message
                          : "FROM " + *args.from + " is later than TO " + *args.to,
                  k_exit_usage);
    }
    from = *first;
    to = *last;
  }
  const auto store = store::open_bar_store(config.db.string());
  store::WriteTransaction transaction(*store);
  const auto removed = store->delete_bars(symbol->str(), from, to);
  if (removed > 0) {
    store->recompute_change_pct(symbol->str());
    store->refresh_symbol(symbol->str());
    store->finish_change("");
  }
  transaction.commit();
  const auto as_of = store->load_dataset_info().as_of;
  std::cout << symbol->str() << ": removed " << removed << (removed == 1 ? " bar" : " bars")
            << "; as_of " << (as_of ? as_of->iso() : "none") << "\n";
  return k_exit_ok;
}

} // namespace

Action setup_remove(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<RemoveArgs>();
  command.add_option("SYMBOL", args->symbol, "The symbol, e.g. 600519.SH")->required();
  command.add_option("FROM", args->from, "First date of the window to remove")->type_name("DATE");
  command.add_option("TO", args->to, "Last date of the window to remove")->type_name("DATE");
  return [args](const Config& config) { return run_remove(*args, config); };
}

} // namespace ashare::cli
