#include "core/query/indicator_query.hpp"

#include "core/indicators/ema.hpp"
#include "core/indicators/rsi.hpp"
#include "core/indicators/sma.hpp"
#include "core/query/adjustment.hpp"

#include <algorithm>
#include <cmath>

namespace ashare::query {

bool TimeFilter::accepts(std::int64_t t) const {
  return (!day_t || t == *day_t) && (!gte || t >= *gte) && (!gt || t > *gt)
         && (!lte || t <= *lte) && (!lt || t < *lt) && (!clip_gte || t >= *clip_gte);
}

std::vector<double> compute_indicator(Indicator indicator,
                                      Convention convention,
                                      std::span<const double> series,
                                      int window) {
  const bool tdx = convention == Convention::tdx;
  switch (indicator) {
  case Indicator::ema:
    return tdx ? indicators::tdx_ema(series, window) : indicators::ema(series, window);
  case Indicator::rsi:
    return tdx ? indicators::tdx_rsi(series, window) : indicators::rsi(series, window);
  case Indicator::sma:
    return indicators::sma(series, window); // D13: 通达信's MA is TA-Lib's SMA
  }
  return {};
}

std::vector<double> indicator_series(const store::PriceSeries& series,
                                     const IndicatorQuery& query,
                                     double latest_factor) {
  std::vector<double> prices(series.prices);
  if (query.adjusted) {
    // D9: adjusted as D8 but unrounded, anchored at the symbol's latest stored bar.
    for (std::size_t i = 0; i < prices.size(); ++i) {
      prices[i] = adjusted_price(prices[i], series.factors[i], latest_factor);
    }
  }
  return compute_indicator(query.indicator, query.convention, prices, query.window);
}

SymbolValues select_values(std::string symbol,
                           std::span<const domain::Date> dates,
                           std::span<const double> values,
                           const IndicatorQuery& query) {
  SymbolValues item{std::move(symbol), true, {}, false};
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::int64_t t = dates[i].t_ms();
    if (!std::isnan(values[i]) && query.filter.accepts(t)) {
      item.values.push_back(IndicatorValue{t, values[i]});
    }
  }
  if (query.order == domain::SortOrder::desc) {
    std::reverse(item.values.begin(), item.values.end());
  }
  if (static_cast<std::int64_t>(item.values.size()) > query.limit) {
    item.has_more = true;
    item.values.resize(static_cast<std::size_t>(query.limit));
  }
  return item;
}

SymbolValues values_from_series(std::string symbol,
                                const store::PriceSeries& series,
                                const IndicatorQuery& query,
                                double latest_factor) {
  return select_values(std::move(symbol), series.dates,
                       indicator_series(series, query, latest_factor), query);
}

} // namespace ashare::query
