#include "core/query/series.hpp"

#include "core/query/history.hpp"

#include <algorithm>
#include <cmath>

namespace ashare::query {
namespace {

std::vector<domain::Bar> all_bars(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, domain::Date::from_ymd(1900, 1, 1).value(),
                         domain::Date::from_ymd(2999, 12, 31).value(), domain::SortOrder::asc, INT64_MAX);
}

} // namespace

Aliases::Aliases(const std::vector<store::CodeAlias>& aliases) : m_aliases(aliases) {
  for (std::size_t i = 0; i < m_aliases.size(); ++i) {
    m_index[m_aliases[i].old_symbol] = i;
    m_index[m_aliases[i].new_symbol] = i;
  }
}

const store::CodeAlias* Aliases::find(const std::string& symbol) const {
  const auto it = m_index.find(symbol);
  return it == m_index.end() ? nullptr : &m_aliases[it->second];
}

std::optional<std::string> Aliases::partner(const std::string& symbol) const {
  const auto* pair = find(symbol);
  if (pair == nullptr) {
    return std::nullopt;
  }
  return pair->old_symbol == symbol ? pair->new_symbol : pair->old_symbol;
}

Aliases load_aliases(store::BarStore& store) {
  return Aliases(store.market().load_aliases());
}

Aliases load_aliases(store::BarStore& store, std::span<const domain::Symbol> symbols) {
  std::vector<store::CodeAlias> found;
  for (const auto& symbol : symbols) {
    auto alias = store.market().load_alias_of(symbol.str());
    if (alias && std::find(found.begin(), found.end(), *alias) == found.end()) {
      found.push_back(std::move(*alias));
    }
  }
  std::sort(found.begin(), found.end(), [](const store::CodeAlias& a, const store::CodeAlias& b) {
    return a.old_symbol < b.old_symbol;
  });
  return Aliases(found);
}

double join_scale(const domain::Bar& old_last, const domain::Bar& new_first, bool new_first_derived) {
  if (old_last.factor == 0 || old_last.close == 0) {
    return 1;
  }
  // The step into the new first bar: the old last close over its pre_close, which the source's
  // change_pct gives to the fen (prices are whole fen); a derived change_pct says nothing.
  double step = 1;
  if (!new_first_derived) {
    const double pre_close = std::round(new_first.close / (1 + new_first.change_pct / 100) * 100) / 100;
    if (pre_close > 0) {
      step = old_last.close / pre_close;
    }
  }
  return new_first.factor / (step * old_last.factor);
}

std::vector<domain::Bar> load_series_bars(store::BarStore& store, const Aliases& aliases,
                                          const std::string& symbol) {
  const auto* pair = aliases.find(symbol);
  if (pair == nullptr) {
    return all_bars(store, symbol);
  }
  auto bars = all_bars(store, pair->new_symbol);
  auto old = all_bars(store, pair->old_symbol);
  if (bars.empty() || old.empty()) {
    return bars.empty() ? old : bars;
  }
  const auto first = bars.front().trade_date;
  std::erase_if(old, [first](const domain::Bar& bar) { return !(bar.trade_date < first); });
  if (old.empty()) {
    return bars;
  }
  const auto derived = store.load_derived_dates(pair->new_symbol);
  const bool first_derived = std::binary_search(derived.begin(), derived.end(), first);
  const double scale = join_scale(old.back(), bars.front(), first_derived);
  for (auto& bar : old) {
    bar.factor *= scale;
  }
  old.insert(old.end(), bars.begin(), bars.end());
  return old;
}

std::vector<domain::Bar> load_series_window(store::BarStore& store, const Aliases& aliases,
                                            const std::string& symbol, domain::Date from, domain::Date to,
                                            domain::SortOrder order, std::int64_t limit) {
  if (aliases.find(symbol) == nullptr) {
    return store.load_bars(symbol, from, to, order, limit);
  }
  auto bars = load_series_bars(store, aliases, symbol);
  std::erase_if(bars, [&](const domain::Bar& bar) { return bar.trade_date < from || to < bar.trade_date; });
  if (order == domain::SortOrder::desc) {
    std::reverse(bars.begin(), bars.end());
  }
  if (limit >= 0 && static_cast<std::size_t>(limit) < bars.size()) {
    bars.resize(static_cast<std::size_t>(limit));
  }
  return bars;
}

store::PriceSeries load_series_prices(store::BarStore& store, const Aliases& aliases,
                                      const std::string& symbol, store::PriceField field) {
  if (aliases.find(symbol) == nullptr) {
    return store.load_price_series(symbol, field);
  }
  return price_series_of(load_series_bars(store, aliases, symbol), field);
}

std::optional<store::SymbolInfo> series_info(store::BarStore& store, const Aliases& aliases,
                                             const std::string& symbol,
                                             const std::optional<store::SymbolInfo>& own,
                                             const std::optional<store::SymbolInfo>& partner) {
  const auto* pair = aliases.find(symbol);
  if (pair == nullptr || !partner) {
    if (!own) {
      return std::nullopt;
    }
    auto info = *own;
    info.symbol = symbol;
    return info;
  }
  if (!own && !partner) {
    return std::nullopt;
  }
  const bool asked_new = pair->new_symbol == symbol;
  const auto& new_info = asked_new ? own : partner;
  const auto& old_info = asked_new ? partner : own;
  if (!new_info || !old_info) {
    auto info = new_info ? *new_info : *old_info;
    info.symbol = symbol;
    return info;
  }
  auto info = *new_info; // its latest factor is the series' (D8's anchor), its source the latest
  info.symbol = symbol;
  if (old_info->first_date < new_info->first_date) {
    info.first_date = old_info->first_date;
    if (old_info->last_date < new_info->first_date) {
      info.bar_count += old_info->bar_count;
    } else { // the old code has bars on or after the new first: those are hidden
      const auto kept = store.load_bars(pair->old_symbol, old_info->first_date, new_info->first_date.plus_days(-1),
                                        domain::SortOrder::asc, INT64_MAX);
      info.bar_count += static_cast<std::int64_t>(kept.size());
    }
  }
  return info;
}

std::optional<HiddenBars> find_hidden_bars(store::BarStore& store, const Aliases& aliases,
                                           const std::string& symbol) {
  const auto* pair = aliases.find(symbol);
  if (pair == nullptr) {
    return std::nullopt;
  }
  const auto old_info = store.find_symbol(pair->old_symbol);
  const auto new_info = store.find_symbol(pair->new_symbol);
  if (!old_info || !new_info || old_info->last_date < new_info->first_date) {
    return std::nullopt;
  }
  const auto hidden = store.load_bars(pair->old_symbol, new_info->first_date, old_info->last_date,
                                      domain::SortOrder::asc, INT64_MAX);
  return HiddenBars{pair->old_symbol, pair->new_symbol, new_info->first_date,
                    static_cast<std::int64_t>(hidden.size())};
}

} // namespace ashare::query
