#include "core/fetch/provider_bars.hpp"

#include "core/domain/kind.hpp"
#include "core/domain/number.hpp"
#include "core/fetch/plan.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ashare::fetch {
namespace {

// A bar of the source, and its cumulative factor when the source gives one.
struct Answered {
  import::ParsedRow row;
  std::optional<double> adj;
};

// Return the decimals `value` is written with in its shortest form (1.074: 3; 8.02: 2).
int decimals_of(double value) {
  const auto text = domain::format_number(value);
  const auto dot = text.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1);
}

// The kinds of the symbols `store` holds, as a verify of the whole store asks for them: its
// indices by name (a source's lists name none, D20), and whether it holds any fund.
struct StoredKinds {
  std::vector<std::string> indices;
  bool has_fund = false;
};

StoredKinds stored_kinds(store::BarStore& store) {
  StoredKinds out;
  for (const auto& info : store.load_symbols()) {
    if (info.kind == domain::Kind::index) {
      out.indices.push_back(info.symbol);
    }
    out.has_fund = out.has_fund || info.kind == domain::Kind::fund;
  }
  return out;
}

// Return the units asking `provider`, whose market shape is a whole day, for `symbols` (none: the
// whole market of each kind `store` holds and `provider` takes, and the stored indices) over
// `days`. D20: a market's day holds no index (Tushare's `index_daily` is asked by `ts_code`), so
// each index is asked a span of its own; funds are a day of their own (`fund_daily`).
std::vector<Unit> market_day_units(const Provider& provider,
                                   store::BarStore& store,
                                   const std::vector<std::string>& symbols,
                                   const std::vector<domain::Date>& days) {
  auto stored = symbols.empty() ? stored_kinds(store) : StoredKinds{};
  std::vector<std::string> others;
  for (const auto& symbol : symbols) {
    (store.market().load_kind(symbol) == domain::Kind::index ? stored.indices : others)
        .push_back(symbol);
  }
  std::vector<domain::Kind> day_kinds;
  if (symbols.empty() || !others.empty()) {
    day_kinds.push_back(domain::Kind::stock); // named symbols: one day, each asked by its kind
  }
  const auto taken = provider.kinds();
  if (symbols.empty() && stored.has_fund
      && std::find(taken.begin(), taken.end(), domain::Kind::fund) != taken.end()) {
    day_kinds.push_back(domain::Kind::fund);
  }
  std::vector<Unit> units;
  for (const auto kind : day_kinds) {
    for (const auto day : days) {
      units.push_back({UnitShape::market_day, others, {day}, std::nullopt, false, kind});
    }
  }
  for (auto& index : stored.indices) {
    units.push_back({UnitShape::symbol_span, {std::move(index)}, days, std::nullopt, false,
                     domain::Kind::index});
  }
  return units;
}

// Return the units asking `provider` for `symbols` (none: the whole market and the stored indices
// of `store`) over `days` (the day before the window first), or why it cannot be asked.
std::variant<std::vector<Unit>, Stop> units_of(Provider& provider,
                                               store::BarStore& store,
                                               const std::vector<std::string>& symbols,
                                               const std::vector<domain::Date>& days) {
  if (provider.market_shape() == UnitShape::market_day) {
    return market_day_units(provider, store, symbols, days);
  }
  auto universe = provider.universe(
      {symbols, symbols.empty() ? stored_kinds(store).indices : std::vector<std::string>{}, {}});
  if (auto* why = std::get_if<Stop>(&universe)) {
    return std::move(*why);
  }
  std::vector<Unit> units;
  for (auto& symbol : std::get<std::vector<std::string>>(universe)) {
    units.push_back({UnitShape::symbol_span, {std::move(symbol)}, days, std::nullopt, false});
  }
  return units;
}

// Add what `fetched` answered for `unit` to `by_symbol`, and its bars that fail a check (in the
// window, from `from` on) to `out`'s warnings.
void add_answer(const Unit& unit, Fetched& fetched, domain::Date from,
                std::map<std::string, std::vector<Answered>>& by_symbol, ProviderBars& out) {
  out.warnings.insert(out.warnings.end(), fetched.warnings.begin(), fetched.warnings.end());
  out.float32_sizes = out.float32_sizes || fetched.float32_sizes;
  for (const auto& problem : fetched.problems) {
    if (!(problem.day < from)) {
      out.warnings.push_back(fetched.where + ": " + problem.symbol + " on " + problem.day.iso() + ": "
                             + problem.column + ": " + problem.message + " (left out: no bar from the source that day)");
    }
  }
  if (unit.shape == UnitShape::symbol_span) {
    by_symbol.try_emplace(unit.symbols.front()); // a symbol asked is compared, bars or none
  }
  for (auto& row : fetched.rows) {
    std::optional<double> adj;
    if (unit.shape == UnitShape::market_day) {
      if (const auto it = fetched.adj.find(row.symbol); it != fetched.adj.end()) {
        adj = it->second;
      }
    } else if (const auto it = fetched.span_adj.find(row.bar.trade_date.yyyymmdd()); it != fetched.span_adj.end()) {
      adj = it->second;
    }
    auto symbol = row.symbol;
    by_symbol[std::move(symbol)].push_back({std::move(row), adj});
  }
}

// Return the bars of one symbol's `answered` rows (ascending) from `from` on, each with its step.
std::vector<ProviderBar> bars_of(const std::vector<Answered>& answered, domain::Date from) {
  std::vector<ProviderBar> bars;
  std::optional<double> last_adj;
  std::optional<double> last_close;
  int places = 0; // the most decimals the symbol's cumulative factors have (8.02 is 8.0200 among 8.0204s)
  for (const auto& [row, adj] : answered) {
    const auto& bar = row.bar;
    ProviderBar out{bar.trade_date, bar.open, bar.high, bar.low, bar.close, bar.volume, bar.turnover, std::nullopt, 0};
    if (adj && last_adj && *last_adj > 0) {
      out.step = *adj / *last_adj;
      // Each factor is off by half a unit of its last decimal at most: the step by a unit.
      places = std::max({places, decimals_of(*adj), decimals_of(*last_adj)});
      out.step_error = std::min(*adj, *last_adj);
    } else if (last_close && row.pre_close && *row.pre_close > 0) {
      out.step = *last_close / *row.pre_close;
    }
    last_adj = adj ? adj : last_adj;
    last_close = bar.close;
    if (!(bar.trade_date < from)) {
      bars.push_back(out);
    }
  }
  for (auto& bar : bars) {
    if (bar.step_error > 0) {
      bar.step_error = std::pow(10.0, -places) / bar.step_error;
    }
  }
  return bars;
}

AskedBars stopped(AskedBars out, const Stop& why, const Provider& provider) {
  out.end = why.end;
  out.message = why.message;
  out.requests = provider.requests();
  return out;
}

} // namespace

AskedBars ask_provider(Provider& provider,
                       store::BarStore& store,
                       const std::vector<std::string>& symbols,
                       domain::Date from,
                       domain::Date to,
                       domain::Date today) {
  AskedBars out;
  out.bars.provider = provider.name();
  auto days = store.market().load_open_days(from, std::min(to, today));
  days.insert(days.begin(), find_open_day_before(store, from).value_or(from.plus_days(-1)));
  const auto units = units_of(provider, store, symbols, days);
  if (const auto* why = std::get_if<Stop>(&units)) {
    return stopped(std::move(out), *why, provider);
  }
  std::map<std::string, std::vector<Answered>> by_symbol;
  for (const auto& unit : std::get<std::vector<Unit>>(units)) {
    auto asked = provider.fetch(unit, {});
    if (const auto* why = std::get_if<Stop>(&asked)) {
      return stopped(std::move(out), *why, provider);
    }
    add_answer(unit, std::get<Fetched>(asked), from, by_symbol, out.bars);
  }
  out.requests = provider.requests();
  for (auto& [symbol, answered] : by_symbol) {
    std::stable_sort(answered.begin(), answered.end(),
                     [](const Answered& a, const Answered& b) { return a.row.bar.trade_date < b.row.bar.trade_date; });
    out.bars.bars[symbol] = bars_of(answered, from);
  }
  return out;
}

} // namespace ashare::fetch
