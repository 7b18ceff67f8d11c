#include "core/fetch/verify.hpp"

#include "core/domain/number.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace ashare::fetch {
namespace {

// A verify's window when nothing is said: this many days.
constexpr std::size_t k_default_days = 20;
// D12's price unit: raw prices agree to half a fen.
constexpr double k_price_tolerance = 0.005;
// float32 keeps 24 significant bits: a value is within 2^-24 of itself once sent as one.
const double k_float32_relative = std::ldexp(1.0, -24);
// What two doubles computed along different roads may differ by.
constexpr double k_rounding_slack = 1e-9;

class Comparison {
public:
  // Compare `symbol`'s bars exactly (its own provider), or with volume and turnover to float32's
  // precision when `coarse` (either side came from TDX). `factor_decimals`: the stored factors
  // are a source's cumulative factors written with that many decimals (0: not rounded so).
  Comparison(VerifyReport& report, const std::string& symbol, bool exact, bool coarse, int factor_decimals)
      : m_report(report), m_symbol(symbol), m_exact(exact), m_coarse(coarse && !exact),
        m_factor_unit(factor_decimals > 0 ? std::pow(10.0, -factor_decimals) : 0) {}

  void bar_on_one_side(domain::Date day, bool stored) {
    add(day, "bar", stored ? "present" : "", stored ? "" : "present");
  }

  void prices(const domain::Bar& stored, const ProviderBar& source) {
    const std::pair<const char*, std::pair<double, double>> fields[] = {
        {"open", {stored.open, source.open}},
        {"high", {stored.high, source.high}},
        {"low", {stored.low, source.low}},
        {"close", {stored.close, source.close}},
    };
    for (const auto& [name, values] : fields) {
      const auto [a, b] = values;
      if (m_exact ? a != b : std::abs(a - b) > k_price_tolerance + k_rounding_slack) {
        add(stored.trade_date, name, domain::format_number(a), domain::format_number(b));
      }
    }
  }

  void sizes(const domain::Bar& stored, const ProviderBar& source) {
    const bool coarse = m_coarse;
    const auto volume_a = static_cast<double>(stored.volume);
    const auto volume_b = static_cast<double>(source.volume);
    const double volume_tolerance =
        coarse ? std::max(volume_a, volume_b) * k_float32_relative + 0.5 + k_rounding_slack : 0;
    if (std::abs(volume_a - volume_b) > volume_tolerance) {
      add(stored.trade_date, "volume", std::to_string(stored.volume), std::to_string(source.volume));
    }
    const double turnover_tolerance =
        coarse ? std::max(stored.turnover, source.turnover) * k_float32_relative + 0.005 + k_rounding_slack
               : (m_exact ? 0 : 0.005 + k_rounding_slack);
    if (std::abs(stored.turnover - source.turnover) > turnover_tolerance) {
      add(stored.trade_date, "turnover", domain::format_number(stored.turnover),
          domain::format_number(source.turnover));
    }
  }

  void step(const domain::Bar& previous, const domain::Bar& stored, const ProviderBar& source) {
    if (!source.step || previous.factor == 0 || *source.step == 0) {
      return;
    }
    const double stored_step = stored.factor / previous.factor;
    const double close = previous.close;
    const double stored_error = m_factor_unit / std::min(previous.factor, stored.factor);
    const double tolerance =
        k_price_tolerance + close * (source.step_error + stored_error) + k_rounding_slack;
    if (std::abs(close / stored_step - close / *source.step) > tolerance) {
      add(stored.trade_date, "factor_step", domain::format_number(stored_step),
          domain::format_number(*source.step));
    }
  }

private:
  void add(domain::Date day, const std::string& field, std::string stored, std::string source) {
    m_report.findings.push_back({m_symbol, day, field, std::move(stored), std::move(source)});
    ++m_report.counts[field];
  }

  VerifyReport& m_report;
  const std::string& m_symbol;
  bool m_exact;
  bool m_coarse;
  double m_factor_unit;
};

// Return the decimals of the stored factors of `bars` (and `before`) when they are a source's
// cumulative factors as written (adj_factor's: at most 6 decimals, the most seen), else 0.
int factor_decimals(const std::vector<domain::Bar>& bars, const std::optional<domain::Bar>& before) {
  int most = 0;
  const auto look = [&most](double factor) {
    const auto text = domain::format_number(factor);
    const auto dot = text.find('.');
    most = std::max(most, dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1));
  };
  for (const auto& bar : bars) {
    look(bar.factor);
  }
  if (before) {
    look(before->factor);
  }
  return most <= 6 ? most : 0;
}

// Compare `symbol`'s stored bars on the `open` days of the report's window with `answered`'s.
void compare_symbol(store::BarStore& store,
                    const ProviderBars& answered,
                    const std::string& symbol,
                    const std::set<domain::Date>& open,
                    VerifyReport& report) {
  const auto from = report.from;
  const auto to = report.to;
  ++report.symbols;
  const auto info = store.find_symbol(symbol);
  const bool exact = info && info->source == answered.provider;
  const auto stored = info ? store.load_bars(symbol, from, to, domain::SortOrder::asc, 1000000)
                           : std::vector<domain::Bar>{};
  std::optional<domain::Bar> previous = info ? store.find_bar_before(symbol, from) : std::nullopt;
  const bool from_adj = info && info->factor_origin == "adj_factor";
  Comparison comparison(report, symbol, exact, answered.float32_sizes || (info && info->source == "tdx"),
                        from_adj ? factor_decimals(stored, previous) : 0);
  std::map<domain::Date, const domain::Bar*> stored_on;
  for (const auto& bar : stored) {
    stored_on[bar.trade_date] = &bar;
  }
  std::map<domain::Date, const ProviderBar*> answered_on;
  if (const auto it = answered.bars.find(symbol); it != answered.bars.end()) {
    for (const auto& bar : it->second) {
      if (!(bar.day < from) && !(to < bar.day)) {
        answered_on[bar.day] = &bar;
      }
    }
  }
  for (const auto day : open) {
    const auto a = stored_on.find(day);
    const auto b = answered_on.find(day);
    const bool has_a = a != stored_on.end();
    const bool has_b = b != answered_on.end();
    if (has_a || has_b) {
      ++report.days;
    }
    if (has_a != has_b) {
      comparison.bar_on_one_side(day, has_a);
    } else if (has_a) {
      comparison.prices(*a->second, *b->second);
      comparison.sizes(*a->second, *b->second);
      if (previous) {
        comparison.step(*previous, *a->second, *b->second);
      }
    }
    if (has_a) {
      previous = *a->second;
    }
  }
}

} // namespace

VerifyReport compare_with_provider(store::BarStore& store,
                                   const ProviderBars& answered,
                                   const std::vector<std::string>& symbols,
                                   domain::Date from,
                                   domain::Date to) {
  VerifyReport report;
  report.provider = answered.provider;
  report.from = from;
  report.to = to;
  std::set<std::string> compared(symbols.begin(), symbols.end());
  if (compared.empty()) {
    for (const auto& info : store.load_symbols()) {
      compared.insert(info.symbol);
    }
    for (const auto& [symbol, bars] : answered.bars) {
      compared.insert(symbol);
    }
  }
  const auto open_days = store.market().load_open_days(from, to);
  const std::set<domain::Date> open(open_days.begin(), open_days.end());
  for (const auto& symbol : compared) {
    compare_symbol(store, answered, symbol, open, report);
  }
  return report;
}

std::optional<std::pair<domain::Date, domain::Date>> default_verify_window(store::BarStore& store) {
  std::set<domain::Date> whole;
  for (const auto& row : store.market().load_ledger("")) {
    if (row.symbol.empty() && row.kind == domain::Kind::stock) { // D20: the stocks' days
      whole.insert(row.trade_date);
    }
  }
  if (!whole.empty()) {
    auto first = whole.end();
    for (std::size_t i = 0; i < k_default_days && first != whole.begin(); ++i) {
      --first;
    }
    return std::pair{*first, *whole.rbegin()};
  }
  const auto as_of = store.load_dataset_info().as_of;
  if (!as_of) {
    return std::nullopt;
  }
  const auto days = store.market().load_open_days(as_of->plus_days(-60), *as_of);
  if (days.empty()) {
    return std::pair{*as_of, *as_of};
  }
  return std::pair{days.size() > k_default_days ? days[days.size() - k_default_days] : days.front(), days.back()};
}

} // namespace ashare::fetch
