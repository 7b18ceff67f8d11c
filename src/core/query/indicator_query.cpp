#include "core/query/indicator_query.hpp"

#include "core/indicators/atr.hpp"
#include "core/indicators/bbands.hpp"
#include "core/indicators/ema.hpp"
#include "core/indicators/kdj.hpp"
#include "core/indicators/macd.hpp"
#include "core/indicators/rsi.hpp"
#include "core/indicators/sma.hpp"
#include "core/query/adjustment.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ashare::query {
namespace {

// Return the prices of `series`, forward-adjusted as D9 says (D8 unrounded, anchored at the
// symbol's latest stored bar) when `adjusted`.
std::vector<double> prices_of(const store::PriceSeries& series, bool adjusted, double latest_factor) {
  std::vector<double> prices(series.prices);
  if (adjusted) {
    for (std::size_t i = 0; i < prices.size(); ++i) {
      prices[i] = adjusted_price(prices[i], series.factors[i], latest_factor);
    }
  }
  return prices;
}

} // namespace

bool TimeFilter::accepts(std::int64_t t) const {
  return (!day_t || t == *day_t) && (!gte || t >= *gte) && (!gt || t > *gt)
         && (!lte || t <= *lte) && (!lt || t < *lt) && (!clip_gte || t >= *clip_gte);
}

std::vector<std::string_view> extra_value_names(Indicator indicator) {
  switch (indicator) {
  case Indicator::macd:
    return {"signal", "histogram"};
  case Indicator::bbands:
    return {"upper", "lower"};
  case Indicator::kdj:
    return {"d", "j"};
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::sma:
  case Indicator::atr:
    break;
  }
  return {};
}

std::vector<store::PriceField> input_fields(const IndicatorQuery& query) {
  if (query.indicator == Indicator::atr || query.indicator == Indicator::kdj) {
    return {store::PriceField::high, store::PriceField::low, store::PriceField::close};
  }
  return {query.series_type};
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
  case Indicator::macd:
  case Indicator::bbands:
  case Indicator::atr:
  case Indicator::kdj:
    break; // several lines or several inputs: indicator_lines()
  }
  assert(false);
  return {};
}

IndicatorLines
indicator_lines(const IndicatorInputs& inputs, const IndicatorQuery& query, double latest_factor) {
  assert(inputs.size() == input_fields(query).size());
  std::vector<std::vector<double>> prices;
  for (const auto* series : inputs) {
    prices.push_back(prices_of(*series, query.adjusted, latest_factor));
  }
  const bool tdx = query.convention == Convention::tdx;
  switch (query.indicator) {
  case Indicator::macd: {
    auto lines = tdx ? indicators::tdx_macd(prices[0], query.fast, query.slow, query.signal)
                     : indicators::macd(prices[0], query.fast, query.slow, query.signal);
    return {std::move(lines.macd), std::move(lines.signal), std::move(lines.histogram)};
  }
  case Indicator::bbands: {
    auto bands = tdx ? indicators::tdx_boll(prices[0], query.window, query.k)
                     : indicators::bbands(prices[0], query.window, query.k);
    return {std::move(bands.middle), std::move(bands.upper), std::move(bands.lower)};
  }
  case Indicator::atr:
    return {tdx ? indicators::tdx_atr(prices[0], prices[1], prices[2], query.window)
                : indicators::atr(prices[0], prices[1], prices[2], query.window),
            {},
            {}};
  case Indicator::kdj: {
    auto lines = tdx ? indicators::tdx_kdj(prices[0], prices[1], prices[2], query.n, query.m1, query.m2)
                     : indicators::kdj(prices[0], prices[1], prices[2], query.n, query.m1, query.m2);
    return {std::move(lines.k), std::move(lines.d), std::move(lines.j)};
  }
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::sma:
    break;
  }
  return {compute_indicator(query.indicator, query.convention, prices[0], query.window), {}, {}};
}

SymbolValues select_values(std::string symbol,
                           std::span<const domain::Date> dates,
                           const IndicatorLines& lines,
                           const IndicatorQuery& query) {
  SymbolValues item{std::move(symbol), true, {}, false};
  const auto& values = lines.value;
  const auto limit = static_cast<std::size_t>(std::max<std::int64_t>(query.limit, 0));
  // Walk the dates in the order asked and stop at the first value past the limit: a request for
  // the latest ten of a 5,000-day history touches ten values, not a copy of all of them (P4).
  const auto take = [&](std::size_t i) {
    const std::int64_t t = dates[i].t_ms();
    if (std::isnan(values[i]) || !query.filter.accepts(t)) {
      return true;
    }
    if (item.values.size() == limit) {
      item.has_more = true;
      return false;
    }
    IndicatorValue value{t, values[i]};
    if (!lines.second.empty()) {
      value.second = lines.second[i];
      value.third = lines.third[i];
    }
    item.values.push_back(value);
    return true;
  };
  const bool desc = query.order == domain::SortOrder::desc;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!take(desc ? values.size() - 1 - k : k)) {
      break;
    }
  }
  return item;
}

SymbolValues values_from_series(std::string symbol,
                                const IndicatorInputs& inputs,
                                const IndicatorQuery& query,
                                double latest_factor) {
  return select_values(std::move(symbol), inputs.front()->dates,
                       indicator_lines(inputs, query, latest_factor), query);
}

SymbolValues values_from_series(std::string symbol,
                                std::span<const store::PriceSeries> series,
                                const IndicatorQuery& query,
                                double latest_factor) {
  IndicatorInputs inputs;
  for (const auto& one : series) {
    inputs.push_back(&one);
  }
  return values_from_series(std::move(symbol), inputs, query, latest_factor);
}

} // namespace ashare::query
