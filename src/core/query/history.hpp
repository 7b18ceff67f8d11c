// A symbol's whole stored history in memory, ascending by date: the raw bars and the same bars
// forward-adjusted (D8) once, with the price series the indicators read (D9: the whole history).
// The server keeps one per symbol and store generation (api/history_cache); a bars request picks
// its window from it with pick_window().
#pragma once

#include "core/domain/bar.hpp"
#include "core/store/bar_store.hpp"

#include <array>
#include <span>
#include <string>
#include <vector>

namespace ashare::query {

struct History {
  std::vector<domain::Bar> raw;
  std::vector<domain::Bar> adjusted;        // D8, against the symbol's latest factor
  std::array<store::PriceSeries, 4> series; // by PriceField, raw prices with their factors (D9)

  // Return the bars a request reads: adjusted or raw.
  const std::vector<domain::Bar>& bars(bool adjusted_prices) const {
    return adjusted_prices ? adjusted : raw;
  }
  // Return the bars' dates, ascending (a price series's): what pick_window() searches, 4 bytes
  // a bar rather than a Bar's 72, so that a search touches a few cache lines (issue 35).
  const std::vector<domain::Date>& dates() const {
    return series[static_cast<std::size_t>(store::PriceField::close)].dates;
  }

  // Return the `field` prices and factors, as BarStore::load_price_series reads them.
  const store::PriceSeries& price_series(store::PriceField field) const {
    return series[static_cast<std::size_t>(field)];
  }
};

// Return the history of the ascending bars `raw`, adjusted against `latest_factor`, the factor of
// the symbol's latest stored bar (D8).
History make_history(std::vector<domain::Bar> raw, double latest_factor);

// Return the whole history of `symbol` read from `store`, adjusted against `latest_factor`.
History load_history(store::BarStore& store, const std::string& symbol, double latest_factor);

// Return every bar of the series `symbol` answers (D19: an aliased code's joins the other's),
// ascending, raw.
std::vector<domain::Bar> load_all_bars(store::BarStore& store, const std::string& symbol);

// Return the `field` prices, dates and factors of `bars`, as BarStore::load_price_series reads
// them.
store::PriceSeries price_series_of(std::span<const domain::Bar> bars, store::PriceField field);

} // namespace ashare::query
