// `ashare fetch tdx` (D18, D19): bring the store up to the last completed trading day from the
// TDX quote servers, without a key. The calendar is refreshed first from SZSE's monthList (a
// month a request; a failure is a warning while the stored calendar covers the days asked). The
// universe is the A-share codes the servers list (or the symbols named). TDX answers per symbol,
// so a symbol is the unit of staging: its bars over the plan's days (category 4, paged back from
// the newest), their pre_close from its category-1 ex-rights events and their factors continuing
// its stored chain, commit with a ledger row per (day, symbol). Once every symbol of the universe
// is stored through a day, that day's whole-market ledger row replaces them. A fetch cut short
// keeps whole symbols and resumes with the next; bars dated after the last completed day (today's,
// before 15:30 UTC+8) are never stored.
#pragma once

#include "core/domain/date.hpp"
#include "core/fetch/fetch_report.hpp"
#include "core/fetch/tdx/client.hpp"
#include "core/fetch/transport.hpp"
#include "core/store/bar_store.hpp"

#include <functional>
#include <string>

namespace ashare::fetch::tdx {

inline constexpr const char* k_provider = "tdx";

// Ask SZSE's monthList for `month` (its first day) and return the HTTP answer (D19).
using MonthGetter = std::function<Exchange(domain::Date month)>;

// Run the fetch on `store` through `client`, refreshing the calendar through `get_month`, and
// calling `progress` after each symbol.
FetchReport fetch_tdx(store::BarStore& store,
                      Client& client,
                      const MonthGetter& get_month,
                      const FetchOptions& options,
                      const std::function<void(const FetchProgress&)>& progress = {});

} // namespace ashare::fetch::tdx
