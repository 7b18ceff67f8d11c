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

RenderedBars render(std::vector<domain::Bar> bars) {
  RenderedBars out;
  out.bars = std::move(bars);
  out.ends.reserve(out.bars.size());
  out.json.reserve(out.bars.size() * 200);
  for (const auto& bar : out.bars) {
    out.json += bar_to_json(bar);
    out.ends.push_back(static_cast<std::uint32_t>(out.json.size()));
    out.json.push_back(',');
  }
  out.json.shrink_to_fit();
  return out;
}

std::size_t bytes_of(const RenderedBars& rendered) {
  return rendered.bars.capacity() * sizeof(domain::Bar) + rendered.json.capacity()
         + rendered.ends.capacity() * sizeof(std::uint32_t);
}

} // namespace

std::string_view RenderedBars::bar_json(std::size_t i) const {
  const std::size_t begin = i == 0 ? 0 : ends[i - 1] + 1;
  return std::string_view(json).substr(begin, ends[i] - begin);
}

std::string_view RenderedBars::joined(std::size_t first, std::size_t end) const {
  const std::size_t begin = first == 0 ? 0 : ends[first - 1] + 1;
  return std::string_view(json).substr(begin, ends[end - 1] - begin);
}

std::shared_ptr<const SymbolHistory>
load_symbol_history(store::BarStore& store, const std::string& symbol, double latest_factor) {
  auto history = std::make_shared<SymbolHistory>();
  auto bars = store.load_bars(symbol, domain::Date::from_ymd(1900, 1, 1).value(),
                              domain::Date::from_ymd(2999, 12, 31).value(),
                              domain::SortOrder::asc, INT64_MAX);
  std::vector<domain::Bar> adjusted;
  adjusted.reserve(bars.size());
  for (const auto& bar : bars) {
    // The same function make_symbol_bars applies, so the bars match what it returns.
    adjusted.push_back(query::adjust_forward(bar, latest_factor));
  }
  for (const auto field : {store::PriceField::open, store::PriceField::high, store::PriceField::low,
                           store::PriceField::close}) {
    history->series[static_cast<std::size_t>(field)] = series_of(bars, field);
  }
  history->raw = render(std::move(bars));
  history->adjusted = render(std::move(adjusted));
  history->bytes = sizeof(SymbolHistory) + bytes_of(history->raw) + bytes_of(history->adjusted)
                   + 4 * history->raw.bars.size() * (sizeof(domain::Date) + 2 * sizeof(double));
  return history;
}

query::SymbolBars slice_history(const SymbolHistory& history,
                                const std::string& symbol,
                                const query::BarQuery& query,
                                std::vector<std::string_view>& bar_json) {
  const auto& rendered = query.adjusted ? history.adjusted : history.raw;
  const auto& bars = rendered.bars;
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
  // One bar more than asked, as run_bar_query loads, tells finish_symbol_bars about next_url.
  const auto take = static_cast<std::size_t>(
      std::min<std::int64_t>(static_cast<std::int64_t>(count), query.limit + 1));
  const bool ascending = query.sort == domain::SortOrder::asc;
  std::vector<domain::Bar> loaded;
  if (ascending) {
    loaded.assign(bars.begin() + static_cast<std::ptrdiff_t>(first),
                  bars.begin() + static_cast<std::ptrdiff_t>(first + take));
  } else {
    loaded.assign(std::make_reverse_iterator(bars.begin() + static_cast<std::ptrdiff_t>(end)),
                  std::make_reverse_iterator(bars.begin() + static_cast<std::ptrdiff_t>(end - take)));
  }
  auto item = query::finish_symbol_bars(symbol, std::move(loaded), query);
  const std::size_t returned = item.bars.size();
  bar_json.clear();
  if (returned == 0) {
    return item;
  }
  if (ascending) {
    bar_json.push_back(rendered.joined(first, first + returned));
  } else {
    bar_json.reserve(returned);
    for (std::size_t k = 0; k < returned; ++k) {
      bar_json.push_back(rendered.bar_json(end - 1 - k));
    }
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
  if (auto history = find(symbol, generation)) {
    return history;
  }
  // Loaded without the lock: other symbols stay served meanwhile. Two threads may load the same
  // history at once; the second to finish just replaces the first.
  auto history = load_symbol_history(store, symbol, latest_factor);
  std::lock_guard lock(m_mutex);
  if (const auto entry = m_entries.find(symbol); entry != m_entries.end()) {
    if (entry->second.generation > generation) {
      return history; // a newer generation got there first: keep that one
    }
    erase(entry); // the same (loaded twice at once), or stale: the store changed since
  }
  if (history->bytes > m_budget) {
    return history; // too big to keep: serve it this once
  }
  while (m_bytes + history->bytes > m_budget && !m_recent.empty()) {
    erase(m_entries.find(m_recent.back()));
  }
  m_recent.push_front(symbol);
  m_entries[symbol] = Entry{generation, history, m_recent.begin()};
  m_bytes += history->bytes;
  return history;
}

std::shared_ptr<const SymbolHistory> BarsCache::find(const std::string& symbol,
                                                      std::int64_t generation) {
  std::lock_guard lock(m_mutex);
  const auto entry = m_entries.find(symbol);
  if (entry == m_entries.end() || entry->second.generation != generation) {
    return nullptr;
  }
  m_recent.splice(m_recent.begin(), m_recent, entry->second.position);
  return entry->second.history;
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
