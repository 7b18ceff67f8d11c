// `ashare fetch PROVIDER` (D18, D19): bring the store up to the last completed trading day from a
// provider (fetch/provider.hpp), D18's steps written once for every provider:
//   1. take the store's fetch lock (a second run says so and ends: store/fetch_lock.hpp);
//   2. refresh the calendar (a failure is a warning while the stored one covers the plan);
//   3. plan the open days the ledger lacks (fetch/plan.hpp); --dry-run stops here with an estimate,
//      --repair asks again for the `missing` bars instead (D19), an empty plan is "up to date";
//   4. refresh the other reference tables (listings, aliases), continue the stored chains that
//      start after the plan's first day backwards (D18), and ask for the plan's units ahead of
//      their writing, one request in flight (fetch/ask_ahead.hpp);
//   5. check each unit's bars (fetch/unit_checks.hpp), set their factors (fetch/factor_chain.hpp)
//      and write them with their record (fetch/record.hpp) through the importers' writer, units
//      committed whole (fetch/write_batch.hpp): a market's day with its ledger row, the days that
//      arrive within 500 ms in one transaction; a symbol's span with a ledger row per (day,
//      symbol), alone, and a day's whole-market row once every symbol is through it;
//   6. the last completed day under 90% of the day before is not yet published: the run ends
//      before it (exit 0) and asks again next run;
//   7. report: ledger end, days behind, --max-lag (fetch/fetch_report.hpp).
// A run cut short keeps whole units and resumes with the next. Progress is reported from the
// calling thread only.
#pragma once

#include "core/fetch/fetch_report.hpp"
#include "core/fetch/provider.hpp"

#include <functional>
#include <string>

namespace ashare::fetch {

using Progress = std::function<void(const FetchProgress&)>;

// Run a fetch from `provider` into the store at `locator` (opened here, under its fetch lock),
// calling `progress` as it goes.
FetchReport run_fetch(const std::string& locator,
                      Provider& provider,
                      const FetchOptions& options,
                      const Progress& progress = {});

} // namespace ashare::fetch
