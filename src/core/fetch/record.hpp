// What a fetch run records in the store beside the bars (D18, D19): the ledger's rows, the
// suspensions a source lists, the absence marks a repair sets or a bar lifts; and what a run reads
// back of them. The run's one place for those tables: where it writes and reads them, and nowhere
// else.
#pragma once

#include "core/domain/date.hpp"
#include "core/fetch/provider.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ashare::fetch {

using SymbolDay = std::pair<std::string, domain::Date>;

// What commits with a unit's bars.
struct UnitRecord {
  std::vector<store::LedgerDay> ledger;
  Suspensions suspensions;
  std::vector<SymbolDay> marks_gone; // absent_at_source marks of bars the source sent after all
  std::vector<store::Absence> marks_new; // a repair: asked again, and the source has none either
};

// Save `record` into `store`, inside the transaction of its unit's bars.
void save_record(store::BarStore& store, const UnitRecord& record);

// Return the absence marks of `store` (every symbol's).
std::set<SymbolDay> load_absence_marks(store::BarStore& store);

// Return the bars of the last whole-market ledger day of `kind` of `provider` before `day`, if
// any: D18's 90% compares a day with it (D20: each API with itself).
std::optional<std::int64_t> whole_market_rows_before(store::BarStore& store,
                                                     const std::string& provider,
                                                     domain::Date day,
                                                     domain::Kind kind = domain::Kind::stock);

// Return the (symbol, day) ledger rows of `provider` (a run naming symbols, a span-shaped run not
// yet through its days, and the indices' own rows, D20).
std::set<SymbolDay> load_staged(store::BarStore& store, const std::string& provider);

// Return the bars staged per day by `provider`'s span-shaped runs of `kind`: the sum of its
// (symbol, day) ledger rows of that kind.
std::map<domain::Date, std::int64_t> staged_bars_by_day(store::BarStore& store,
                                                        const std::string& provider,
                                                        domain::Kind kind = domain::Kind::stock);

// Record `provider`'s whole-market row of `kind` on `day` with `bars` (D18: every symbol of the
// universe is stored through it), in the caller's transaction. Its staged rows give way to it,
// but an index's (D20: each index is planned from its own rows, so that one added later is).
void record_whole_day(store::BarStore& store,
                      const std::string& provider,
                      domain::Date day,
                      std::int64_t bars,
                      domain::Kind kind = domain::Kind::stock);

// Forget `provider`'s staged rows of `kind` on `day`, so that those symbols are asked for it again
// next run; in the caller's transaction.
void forget_staged_day(store::BarStore& store,
                       const std::string& provider,
                       domain::Date day,
                       domain::Kind kind = domain::Kind::stock);

} // namespace ashare::fetch
