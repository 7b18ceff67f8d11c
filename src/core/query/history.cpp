#include "core/query/history.hpp"

#include "core/query/series.hpp"

#include "core/query/adjustment.hpp"

#include <cstdint>

namespace ashare::query {
store::PriceSeries price_series_of(std::span<const domain::Bar> bars, store::PriceField field) {
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

History make_history(std::vector<domain::Bar> raw, double latest_factor) {
  History history;
  history.adjusted = raw;
  forward_adjust(history.adjusted, latest_factor);
  for (const auto field : {store::PriceField::open, store::PriceField::high, store::PriceField::low,
                           store::PriceField::close}) {
    history.series[static_cast<std::size_t>(field)] = price_series_of(raw, field);
  }
  history.raw = std::move(raw);
  return history;
}

History load_history(store::BarStore& store, const std::string& symbol, double latest_factor) {
  return make_history(load_all_bars(store, symbol), latest_factor);
}

std::vector<domain::Bar> load_all_bars(store::BarStore& store, const std::string& symbol) {
  return load_series_bars(store, load_aliases(store), symbol); // D19: either code, one series
}

} // namespace ashare::query
