// What every provider's fetch takes and reports (D18): the options of `ashare fetch PROVIDER`,
// how a run ended and its exit status, its progress, and the report the command line prints.
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/kind.hpp"
#include "core/error.hpp"
#include "core/fetch/plan.hpp"
#include "core/store/bar_store.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::fetch {

// D20's indices, taken besides the market when no symbol is named and no list is set.
inline constexpr std::array<std::string_view, 8> k_default_indices = {
    "000001.SH", "000016.SH", "000300.SH", "000688.SH", "000852.SH", "000905.SH", "399001.SZ", "399006.SZ"};

// D20's indices whose membership a Tushare fetch takes when no list is set.
inline constexpr std::array<std::string_view, 3> k_default_members = {"000300.SH", "000905.SH", "000852.SH"};

struct FetchOptions {
  std::vector<std::string> symbols; // empty: the whole market
  // D20, when no symbol is named: the indices taken besides the market's codes (canonical; the
  // command line resolves --indices, ASHARE_INDICES, `indices`, k_default_indices), and the kinds
  // taken (empty: every kind).
  std::vector<std::string> indices;
  std::vector<domain::Kind> kinds;
  // D20, when no symbol is named: the indices whose membership snapshots are taken (--members,
  // ASHARE_MEMBERS, `members`, k_default_members), by a provider that answers membership.
  std::vector<std::string> members;
  std::optional<domain::Date> from;
  std::optional<domain::Date> to;
  bool refetch = false;
  bool skip_invalid = false;
  bool dry_run = false;
  bool repair = false;        // ask again for the `missing` bars (D19) instead of new days
  std::optional<int> max_lag; // exit 1 when more open days behind than this
  std::chrono::system_clock::time_point now;
};

// How a fetch ended, and its exit status (D18).
enum class FetchEnd {
  done,              // 0: days stored
  up_to_date,        // 0: nothing to do
  another_running,   // 0: another fetch holds the store's lock; nothing done
  not_yet_published, // 0: the last completed day is not complete at the source yet
  planned,           // 0: --dry-run
  lagging,           // 1: --max-lag exceeded
  refused_row,       // 1: a bar failed D16 or lay on a closed day
  refused,           // 1: a bad request or a day past the calendar
  quota_or_token,    // 4: the daily quota is spent or the token refused
  source_failing,    // 3: the source kept failing
};

// Return the exit status of `end`.
int exit_status(FetchEnd end);

// Return how a fetch ends on a source's `error`: source_failing when the source could not be
// reached or kept failing (SERVICE_UNAVAILABLE), else refused.
FetchEnd end_of(const Error& error);

// How far a run is: units (a market's days, or symbols: fetch/provider.hpp) taken of those planned.
struct FetchProgress {
  std::size_t units_done = 0;
  std::size_t units_total = 0;
  std::int64_t rows = 0;
  std::int64_t requests = 0;
  std::optional<domain::Date> day;     // being fetched: a market's day
  std::string symbol;                  // being fetched: a symbol's span
  std::chrono::milliseconds waiting{0}; // waiting out the source's rate window
};

struct FetchReport {
  FetchEnd end = FetchEnd::done;
  std::string message;              // why it stopped, when not done or up to date
  std::optional<Plan> plan;
  std::size_t days_stored = 0;
  std::size_t symbols_stored = 0;   // TDX: symbols staged through the plan's days
  std::size_t snapshots_stored = 0; // D20: index membership snapshots (an index's day each)
  std::int64_t rows = 0;
  std::int64_t requests = 0;
  std::int64_t absent_marked = 0;      // --repair: bars the source lacks too (absent_at_source)
  std::int64_t estimated_requests = 0; // --dry-run: the calls the plan needs (at least)
  std::optional<domain::Date> ledger_end; // the latest whole-market ledger day after the fetch
  std::int64_t days_behind = 0;           // open days from ledger_end to the last completed day
  std::vector<std::string> warnings;      // said once each: fallbacks, empty days, refreshes
};

// Fill in what every run reports at its end from `store`'s ledger of `provider`: ledger_end,
// days_behind, and the lagging end when --max-lag (in `options`) is exceeded by a run that
// otherwise succeeded.
void finish_report(store::BarStore& store,
                   const std::string& provider,
                   const FetchOptions& options,
                   FetchReport& report);

} // namespace ashare::fetch
