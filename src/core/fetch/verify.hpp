// `ashare verify --against PROVIDER` (issue 33): the stored bars of a window compared with what
// a provider answers for the same days (fetch/provider_bars.hpp), nothing written. Per symbol and day it finds raw prices
// that differ by more than 0.005 CNY; volume and turnover beyond the coarser side's precision
// (TDX's float32: the value's 2^-24 and the rounding to a share and to 0.01 CNY); factor steps
// that disagree (they agree when close[t-1] / step agrees to 0.005 CNY, plus the rounding bound of
// Tushare's adj_factor: one unit of the last decimal it is written with, over the factor); and days with a bar
// on one side only. Against a symbol's own provider (its bars' source) prices, volume and
// turnover compare exactly: a revision check.
#pragma once

#include "core/domain/date.hpp"
#include "core/fetch/provider_bars.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ashare::fetch {

struct VerifyFinding {
  std::string symbol;
  domain::Date day;
  std::string field;  // open, high, low, close, volume, turnover, factor_step, bar
  std::string stored; // as text, "" when the side has no bar
  std::string source;
};

struct VerifyReport {
  std::string provider;
  domain::Date from;
  domain::Date to;
  std::int64_t symbols = 0;    // compared
  std::int64_t days = 0;       // (symbol, day) pairs with a bar on either side
  std::vector<VerifyFinding> findings; // by symbol, then day
  std::map<std::string, std::int64_t> counts; // findings per field

  bool agree() const { return findings.empty(); }
};

// Compare the stored bars of `symbols` (all the store's and the provider's when empty) on the open
// days of [`from`, `to`] with what the provider answered, `answered`.
VerifyReport compare_with_provider(store::BarStore& store,
                                   const ProviderBars& answered,
                                   const std::vector<std::string>& symbols,
                                   domain::Date from,
                                   domain::Date to);

// Return the default window of a verify on `store`: its last 20 whole-market ledger days (of any
// provider), else its last 20 open days up to as_of; nullopt for an empty store.
std::optional<std::pair<domain::Date, domain::Date>> default_verify_window(store::BarStore& store);

} // namespace ashare::fetch
