// What a provider answers for `ashare verify` (issue 33): the bars of a window asked again of any
// provider (fetch/provider.hpp) as a fetch reads them, each with the factor step into it from the
// bar before (the source's cumulative factors where it gives them, else close[t-1] /
// pre_close[t]), nothing written. fetch/verify.hpp compares them with the store.
#pragma once

#include "core/domain/date.hpp"
#include "core/fetch/fetch_report.hpp"
#include "core/fetch/provider.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ashare::fetch {

// A bar as a provider answers it, for comparison only.
struct ProviderBar {
  domain::Date day;
  double open = 0;
  double high = 0;
  double low = 0;
  double close = 0;
  std::int64_t volume = 0; // shares
  double turnover = 0;     // CNY
  // The factor step into this day from the source's bar before it: adj_factor[t] / adj_factor[t-1]
  // (Tushare) or close[t-1] / pre_close[t]; nullopt when the source cannot say.
  std::optional<double> step;
  // How far `step` may be off by the rounding of what it was computed from, relative to it: one
  // unit of the last decimal the source writes its cumulative factors with, over the smaller of
  // the two.
  double step_error = 0;
};

// What a provider answered for a window: each symbol's bars, ascending.
struct ProviderBars {
  std::string provider;       // "tdx" or "tushare-pro", as bars record their source
  bool float32_sizes = false; // volume and amount came as float32 (TDX)
  std::map<std::string, std::vector<ProviderBar>> bars;
  std::vector<std::string> warnings; // bars the source sent that fail its own checks, etc.
};

// What asking a provider for a verify came to: its bars, or why it stopped (exit 3 or 4 as fetch).
struct AskedBars {
  ProviderBars bars;
  FetchEnd end = FetchEnd::done;
  std::string message;
  std::int64_t requests = 0;
};

// Ask `provider` for the bars of `symbols` (when empty, every one it lists and the indices `store`
// holds, D20; an index is asked a span of its own of a provider that answers whole days) on the
// open days of [`from`, `to`] that are not after `today` (`store`'s calendar says which), and on
// the open day before `from`, asked for the steps into `from` only.
AskedBars ask_provider(Provider& provider,
                       store::BarStore& store,
                       const std::vector<std::string>& symbols,
                       domain::Date from,
                       domain::Date to,
                       domain::Date today);

} // namespace ashare::fetch
