#include "core/api/bars_cache.hpp"

#include "core/api/json.hpp"
#include "core/query/adjustment.hpp"

#include <algorithm>

namespace ashare::api {
namespace {

// Return the `field` prices, dates and factors of `bars`.
store::PriceSeries series_of(const std::vector<domain::Bar>& bars, store::PriceField field) {
  store::PriceSeries series;
  series.dates.reserve(bars.size());
  series.prices.reserve(bars.size());
  series.factors.reserve(bars.size());
  for (const auto& bar : bars) {
    series.dates.push_back(bar.trade_date);
    series.prices.push_back(field == store::PriceField::open   ? bar.open
                            : field == store::PriceField::high ? bar.high
                            : field == store::PriceField::low  ? bar.low
                                                               : bar.close);
    series.factors.push_back(bar.factor);
  }
  return series;
}

} // namespace

std::shared_ptr<const SymbolHistory>
load_symbol_history(store::BarStore& store, const std::string& symbol, double latest_factor) {
  auto history = std::make_shared<SymbolHistory>();
  history->bars = store.load_bars(symbol, domain::Date::from_ymd(1900, 1, 1).value(),
                                  domain::Date::from_ymd(2999, 12, 31).value(),
                                  domain::SortOrder::asc, INT64_MAX);
  history->raw_json.reserve(history->bars.size());
  history->adjusted_json.reserve(history->bars.size());
  std::size_t bytes = sizeof(SymbolHistory) + history->bars.size() * sizeof(domain::Bar);
  for (const auto& bar : history->bars) {
    history->raw_json.push_back(bar_to_json(bar));
    // The same function make_symbol_bars applies, so the JSON matches the bars it returns.
    history->adjusted_json.push_back(bar_to_json(query::adjust_forward(bar, latest_factor)));
    bytes += history->raw_json.back().capacity() + history->adjusted_json.back().capacity()
             + 2 * sizeof(std::string);
  }
  for (const auto field : {store::PriceField::open, store::PriceField::high, store::PriceField::low,
                           store::PriceField::close}) {
    history->series[static_cast<std::size_t>(field)] = series_of(history->bars, field);
  }
  bytes += 4 * history->bars.size() * (sizeof(domain::Date) + 2 * sizeof(double));
  history->bytes = bytes;
  return history;
}

query::SymbolBars slice_history(const SymbolHistory& history,
                                const std::string& symbol,
                                const query::BarQuery& query,
                                double latest_factor,
                                std::vector<std::string_view>& bar_json) {
  const auto& bars = history.bars;
  const auto by_date = [](const domain::Bar& bar, domain::Date date) {
    return bar.trade_date < date;
  };
  const auto first = static_cast<std::size_t>(
      std::lower_bound(bars.begin(), bars.end(), query.from, by_date) - bars.begin());
  const auto end =
      static_cast<std::size_t>(std::upper_bound(bars.begin(), bars.end(), query.to,
                                                [](domain::Date date, const domain::Bar& bar) {
                                                  return date < bar.trade_date;
                                                })
                               - bars.begin());
  const std::size_t count = end > first ? end - first : 0;
  // One row more than asked, as run_bar_query loads, tells make_symbol_bars about next_url.
  const auto take = static_cast<std::size_t>(
      std::min<std::int64_t>(static_cast<std::int64_t>(count), query.limit + 1));
  std::vector<std::size_t> index(take);
  std::vector<domain::Bar> loaded(take);
  for (std::size_t k = 0; k < take; ++k) {
    index[k] = query.sort == domain::SortOrder::asc ? first + k : end - 1 - k;
    loaded[k] = bars[index[k]];
  }
  auto item = query::make_symbol_bars(symbol, std::move(loaded), query, latest_factor);
  const auto& rendered = query.adjusted ? history.adjusted_json : history.raw_json;
  bar_json.clear();
  bar_json.reserve(item.bars.size());
  for (std::size_t k = 0; k < item.bars.size(); ++k) {
    bar_json.push_back(rendered[index[k]]);
  }
  return item;
}

const store::PriceSeries& price_series(const SymbolHistory& history, store::PriceField field) {
  return history.series[static_cast<std::size_t>(field)];
}

std::shared_ptr<const SymbolHistory> BarsCache::find_or_load(store::BarStore& store,
                                                             const std::string& symbol,
                                                             double latest_factor,
                                                             std::int64_t generation) {
  {
    std::lock_guard lock(m_mutex);
    const auto entry = m_entries.find(symbol);
    if (entry != m_entries.end()) {
      if (entry->second.generation == generation) {
        m_recent.splice(m_recent.begin(), m_recent, entry->second.position);
        return entry->second.history;
      }
      if (entry->second.generation < generation) {
        erase(entry); // stale: the store changed since it was loaded
      }
    }
  }
  // Loaded without the lock: other symbols stay served meanwhile. Two threads may load the same
  // history at once; the second to finish just replaces the first.
  auto history = load_symbol_history(store, symbol, latest_factor);
  std::lock_guard lock(m_mutex);
  if (history->bytes > m_budget) {
    return history; // too big to keep: serve it this once
  }
  if (const auto entry = m_entries.find(symbol); entry != m_entries.end()) {
    if (entry->second.generation > generation) {
      return history; // a newer generation got there first: keep that one
    }
    erase(entry);
  }
  while (m_bytes + history->bytes > m_budget && !m_recent.empty()) {
    erase(m_entries.find(m_recent.back()));
  }
  m_recent.push_front(symbol);
  m_entries[symbol] = Entry{generation, history, m_recent.begin()};
  m_bytes += history->bytes;
  return history;
}

std::size_t BarsCache::bytes() const {
  std::lock_guard lock(m_mutex);
  return m_bytes;
}

void BarsCache::erase(std::unordered_map<std::string, Entry>::iterator entry) {
  m_bytes -= entry->second.history->bytes;
  m_recent.erase(entry->second.position);
  m_entries.erase(entry);
}

} // namespace ashare::api
