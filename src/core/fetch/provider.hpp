// A provider of the market's bars (D18): what a fetch (fetch/run_fetch.hpp) and a verify
// (fetch/verify.hpp) ask of a source, and nothing of how the source is asked. The run holds D18's
// steps once; a provider fills in only what it asks and how it reads the answer, as the importers'
// rows, so that every provider's bar is checked, chained and written by the same code.
//
// A provider answers units of two shapes: a whole market's day of one kind (Tushare's `daily` or
// `fund_daily`: every symbol, or those named, on one open day) and one symbol's span of days (TDX,
// which answers per symbol, and Tushare's indices, which `index_daily` answers per code). D20: the
// ledger is per kind, and a unit says which kind it asks for.
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/kind.hpp"
#include "core/fetch/factor_chain.hpp"
#include "core/fetch/fetch_report.hpp"
#include "core/import/parsed_file.hpp"
#include "core/store/bar_store.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ashare::fetch {

enum class UnitShape { market_day, symbol_span };

// What a run asks a provider for at once.
struct Unit {
  UnitShape shape = UnitShape::market_day;
  // market_day: the symbols asked (none: the whole market); symbol_span: its one symbol.
  std::vector<std::string> symbols;
  // The open days wanted, ascending: a market day's one; a span's, which runs from the first to
  // the last (the days between that are not wanted are answered too, and not written).
  std::vector<domain::Date> days;
  // market_day: an earlier open day whose cumulative factors are asked too, because a stored chain
  // continues from it (FactorChain::remember_adj).
  std::optional<domain::Date> factors_before;
  bool with_suspensions = true; // market_day: the day's suspensions too (D19); a verify needs none
  // market_day: the kind asked (a run naming symbols asks them all as one stock day: the provider
  // asks each by its code's kind); symbol_span: its symbol's kind, the ledger rows'.
  domain::Kind kind = domain::Kind::stock;
};

// A bar a provider was sent that fails a check (D16, or the provider's own reading): no row.
struct BarProblem {
  std::int64_t line = 0; // its place in the answer: the first problem is the one a stop names
  std::string symbol;
  domain::Date day;
  std::string column; // at fault, e.g. "high"
  std::string message;
  bool second_bar = false; // a second bar of the symbol that day: the first is written
};

using Suspensions = std::vector<std::pair<std::string, domain::Date>>;

// What a provider answered for a unit.
struct Fetched {
  std::string where; // the source as messages name it: "tushare-pro", "tdx (HOST:PORT)"
  // The unit's bars, factors left at 1, pre_close set where the source says it: a market day's in
  // the source's order, a span's ascending (none before its first day or after its last).
  std::vector<import::ParsedRow> rows;
  std::vector<BarProblem> problems;
  std::size_t answered = 0; // rows the source sent: D18's 90% compares a market day's
  AdjFactors adj;           // market_day: each symbol's cumulative factor that day (none: no factors)
  std::map<std::int64_t, double> span_adj; // symbol_span: the same, by YYYYMMDD
  AdjFactors adj_before;                   // market_day: those of Unit::factors_before
  Suspensions suspensions;                 // D19: the symbols suspended on the unit's days
  bool float32_sizes = false; // volume and amount came as float32 (TDX): about 7 digits (verify)
  std::vector<std::string> warnings; // a fallback taken, ...: the run says each once
  // D20: the token may not call the kind's bars API (`fund_daily`, `index_daily`): the run leaves
  // the kind out, a warning (in `warnings`) naming the API.
  bool kind_refused = false;
};

// Why a provider's answer ends the run: how (and so its exit status) and in whose words.
struct Stop {
  FetchEnd end = FetchEnd::refused;
  std::string message;
};

using Asked = std::variant<Fetched, Stop>;

// A span of the exchange's calendar as a source answers it: every day of [first, last], open or not.
struct CalendarSpan {
  domain::Date first;
  domain::Date last;
  std::vector<domain::Date> open_days; // ascending
};

// What a provider's reference tables came to (D18, D19): each table it read (none: not refreshed,
// the store keeps what it holds), a warning for each it could not read, or why the run stops.
struct References {
  std::vector<CalendarSpan> calendar;
  std::optional<std::vector<store::Listing>> listings;
  std::optional<std::vector<store::CodeAlias>> aliases;
  std::string aliases_from; // the table's name in messages, e.g. "Tushare `bse_mapping`"
  std::vector<std::string> warnings;
  std::optional<Stop> stop; // quota or token: the run ends (D18)
};

// D20: an index's membership snapshots as the source files them (Tushare `index_weight`), by day;
// or, when the token may not call the API, none and a warning: the run goes on without them.
struct Snapshots {
  std::map<domain::Date, std::vector<store::MemberWeight>> by_day;
  std::vector<std::string> warnings;
};

// What a run asks a provider's universe for (D20).
struct UniverseAsk {
  std::vector<std::string> named;   // canonical: exactly these, whatever their kind
  std::vector<std::string> indices; // none named: the indices taken besides the market's codes
  std::vector<domain::Kind> kinds;  // none named: the kinds taken (empty: every kind)
};

// How much a plan asks for (--dry-run's estimate): the open days planned of each kind and the
// symbols of each kind it takes (`named`: the symbols a fetch names, else the store's and the
// indices asked).
struct PlanSize {
  std::size_t stock_days = 0;
  std::size_t fund_days = 0;
  std::size_t index_days = 0;
  std::size_t stocks = 0;
  std::size_t funds = 0;
  std::size_t indices = 0;
  std::size_t members = 0; // D20: the indices whose membership snapshots are asked
  bool named = false;
};

// What a provider tells while it asks, from whichever thread asks: how long it waits out the
// source's rate window (zero: it asks again). The run reports it from its own thread.
using Waiting = std::function<void(std::chrono::milliseconds)>;

class Provider {
public:
  virtual ~Provider() = default;

  // Return the name bars record as their source and the ledger as its provider ("tushare-pro").
  virtual std::string name() const = 0;
  // Return the name messages give the source ("Tushare", "TDX").
  virtual std::string display_name() const = 0;
  // Return the shape of the units a fetch asks for the market in.
  virtual UnitShape market_shape() const = 0;
  // Return the kinds of symbol the provider takes (D20). With market_shape() market_day, a stock's
  // or a fund's day is a unit (Tushare's `daily`, `fund_daily`) and each index a span.
  virtual std::vector<domain::Kind> kinds() const { return {domain::Kind::stock}; }

  // Return the exchange's calendar around `today` (back to `from` when earlier): D19, asked before
  // a run plans, as the plan reads it.
  virtual References calendar(domain::Date today, std::optional<domain::Date> from, const Waiting& waiting) = 0;
  // Return the other reference tables the provider keeps current (listings, aliases) for what
  // `ask` takes, asked before the days of a plan are.
  virtual References references(const UniverseAsk& ask, const Waiting& waiting) = 0;

  // Return the calls a plan of `size` needs at least (--dry-run).
  virtual std::int64_t estimate(const PlanSize& size) const = 0;

  // Whether the source publishes an index's bar later than the market's day (Tushare refreshes
  // `index_daily` at 9:00 and 19:00): a named index without a bar on the last completed day is
  // then not yet published, and the indices' day is asked again next run (D20).
  virtual bool indices_lag() const { return false; }

  // Whether the source answers index membership (D20: Tushare's `index_weight`; TDX has none).
  virtual bool answers_members() const { return false; }
  // Return the membership snapshots of `index` (canonical, as ashare names it) dated within
  // [first, last]: at least one call (paged), or why the run ends.
  virtual std::variant<Snapshots, Stop> members(const std::string& index, domain::Date first, domain::Date last,
                                                const Waiting& waiting) {
    (void)index, (void)first, (void)last, (void)waiting;
    return Snapshots{};
  }

  // Return the symbols a fetch asks a span each of: with market_shape() symbol_span, `ask.named`
  // when given, else those of `ask.kinds` the source lists and `ask.indices` (D20); with
  // market_day, the indices of `ask` a market's day does not answer. Sorted, each once.
  virtual std::variant<std::vector<std::string>, Stop> universe(const UniverseAsk& ask) = 0;

  // Ask the source for `unit`. One thread at a time asks, not always the run's: what a provider
  // learns as it goes (an API it may not call) it keeps, and tells only through its answers.
  virtual Asked fetch(const Unit& unit, const Waiting& waiting) = 0;

  // Return the requests sent so far, failed ones included; safe to ask from any thread.
  virtual std::int64_t requests() const = 0;
};

} // namespace ashare::fetch
