// What `ashare info` says of how current the store is (D18, D19): the ledger per provider (its
// last whole-market day and how many open days it is behind the last completed trading day), the
// calendar's span, the listings, and the bars stored after as_of (from a fetch naming symbols or
// an import), which are served for an explicit range only.
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/kind.hpp"
#include "core/store/bar_store.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ashare::fetch {

struct ProviderLedger {
  std::string provider;
  std::optional<domain::Date> first;     // the first ledger day
  std::optional<domain::Date> last_whole; // the last whole-market day
  std::int64_t whole_days = 0;
  std::int64_t symbol_rows = 0;  // (day, symbol) rows of fetches naming symbols
  std::int64_t days_behind = 0;  // open days after last_whole up to the last completed day
  // D20: the last day each other kind (fund, index) was whole through the provider.
  std::map<domain::Kind, domain::Date> last_whole_of_kind;
};

struct LedgerStatus {
  std::vector<ProviderLedger> providers;
  std::optional<domain::Date> last_completed; // nullopt: the calendar does not reach today
  std::optional<std::pair<domain::Date, domain::Date>> calendar;
  std::int64_t listings = 0;
  std::int64_t delisted = 0;
  std::int64_t bars_after_as_of = 0;
  // D19: fed by TDX alone, which lists no delisted codes (no Tushare ledger, no delisted listing).
  bool survivorship_biased = false;
};

// Return the status of `store` at `now`.
LedgerStatus ledger_status(store::BarStore& store, std::chrono::system_clock::time_point now);

} // namespace ashare::fetch
