// Which days a fetch asks for (D18): the last completed trading day at an instant, and the open
// days between the start (--from, else the first ledger day, else 250 open days back) and that
// day that the ledger does not hold yet (all of them with --refetch).
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/kind.hpp"
#include "core/error.hpp"
#include "core/store/bar_store.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace ashare::fetch {

// The open days a first fetch without --from asks for.
inline constexpr int k_first_fetch_days = 250;

// Return the date at UTC+8 of `instant` and whether it is 15:30 there or later (the close has
// been published).
struct Utc8Day {
  domain::Date date;
  bool after_close = false;
};
Utc8Day utc8_day(std::chrono::system_clock::time_point instant);

// Return the last completed trading day at `instant` (D18): the latest open day before the date
// at UTC+8, or that date itself once it is 15:30 there or later. An INVALID_INPUT error when the
// stored calendar ends before that date (a day past its end is unknown, D19).
Result<domain::Date> last_completed_day(store::BarStore& store,
                                        std::chrono::system_clock::time_point instant);

struct PlanRequest {
  std::string provider;             // "tushare-pro"
  std::vector<std::string> symbols; // empty: the whole market
  std::optional<domain::Date> from;
  std::optional<domain::Date> to;
  bool refetch = false;
};

// D20: the kind a plan is of, planned from its own ledger rows. A run naming symbols plans them as
// stocks (its (day, symbol) rows are the stocks').
struct KindPlan {
  domain::Kind kind = domain::Kind::stock;
  // The kind's symbols asked a span each whose own (day, symbol) rows plan them (D20's indices:
  // one added later is planned from its own rows); empty: the whole-market rows plan the kind.
  std::vector<std::string> own_rows;
};

struct Plan {
  std::vector<domain::Date> days; // to fetch, ascending
  domain::Date start;             // the first day considered
  domain::Date end;               // the last: min(--to, the last completed day)
  domain::Date last_completed;
  // A first fetch without --from on a store whose bars end before `start`: the --from that closes
  // the gap.
  std::optional<domain::Date> gap_from;
};

// Return the plan of `request` on `store` with `last_completed` the last completed day. An
// INVALID_PARAMETER error when --from is after --to, an INVALID_INPUT error when a day asked is
// past the stored calendar's end.
Result<Plan> plan_fetch(store::BarStore& store,
                        const PlanRequest& request,
                        domain::Date last_completed,
                        const KindPlan& of = {});

// Return the first day a plan considers without --from when `ledger` (one kind's rows) is empty:
// k_first_fetch_days open days back from `end`; else the ledger's first day.
domain::Date default_start(store::BarStore& store, const std::vector<store::LedgerDay>& ledger, domain::Date end);

// Return the latest open day before `day` in `store`'s calendar, looking a month back at most
// (what a chain into `day` steps from: D18), or nullopt.
std::optional<domain::Date> find_open_day_before(store::BarStore& store, domain::Date day);

// Return whether the ledger rows `ledger` hold `day` for `symbols` (empty: the whole market, any
// whole-market row); a named symbol is held by its own row or a whole-market row of its code's
// kind (D20).
bool ledger_holds(const std::vector<store::LedgerDay>& ledger,
                  domain::Date day,
                  const std::vector<std::string>& symbols);

} // namespace ashare::fetch
