// One fetch run (fetch/run_fetch.hpp), internal to fetch/: the run's state and steps, in five
// files: run_fetch.cpp (the skeleton: refreshes, plan, dry run, up to date, report), run_kinds.cpp
// (D20: each kind planned from its own ledger, and recorded whole), run_units.cpp (a plan's units
// asked ahead, checked, recorded and committed), run_members.cpp (D20: index membership
// snapshots) and run_repair.cpp (--repair).
#pragma once

#include "core/fetch/factor_chain.hpp"
#include "core/fetch/fetch_report.hpp"
#include "core/fetch/provider.hpp"
#include "core/fetch/record.hpp"
#include "core/fetch/run_fetch.hpp"
#include "core/fetch/write_batch.hpp"
#include "core/store/bar_store.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ashare::fetch {

class Run {
public:
  Run(store::BarStore& store, Provider& provider, const FetchOptions& options, const Progress& progress);

  FetchReport run();

private:
  // How a unit's answer is written: false when the run stops there.
  using UnitWriter = bool (Run::*)(const Unit& unit, Fetched& fetched);

  // run_fetch.cpp
  bool stop(FetchEnd end, std::string message);
  bool stop(const Stop& why) { return stop(why.end, why.message); }
  void warn(const std::string& warning); // said once, however many units say it
  void warn_all(const std::vector<std::string>& warnings);
  bool refresh(const References& references);
  void run_plan(const Plan& plan);
  Waiting waiting_here();
  void show(const Unit* unit); // the unit being fetched (none: the run is through)
  void tell();

  // run_kinds.cpp
  std::vector<domain::Kind> kinds_taken() const;
  Result<Plan> plan_kinds(domain::Date last_completed);
  PlanSize plan_size();
  UniverseAsk universe_ask() const;
  bool takes(domain::Kind kind) const;
  domain::Kind kind_of(const std::string& symbol) const;
  domain::Kind ledger_kind(const Unit& unit, const std::string& symbol) const;
  void record_whole_market(domain::Kind kind);
  std::optional<std::string> indices_unpublished(domain::Date day);
  std::size_t whole_days_through(const Plan& plan);

  // run_members.cpp
  bool takes_members() const;
  std::vector<std::string> members_asked(const Plan& plan); // the indices whose snapshots are asked
  std::pair<domain::Date, domain::Date> members_window(const std::string& index, const Plan& plan);
  bool fetch_members(const Plan& plan);

  // run_units.cpp
  bool fetch_plan(const Plan& plan);
  bool fetch_market_kind(domain::Kind kind);
  std::vector<Unit> market_days(const Plan& plan, domain::Kind kind);
  std::optional<std::vector<Unit>> symbol_spans();
  bool continue_chains_backward(const Plan& plan, domain::Kind kind);
  bool ask_and_write(const std::vector<Unit>& units, UnitWriter write);
  bool write_market_day(const Unit& unit, Fetched& fetched);
  bool write_symbol_span(const Unit& unit, Fetched& fetched);
  bool judge(std::vector<BarProblem> problems, const Fetched& fetched, UnitShape shape);
  bool refuse_closed_day_bar(const Unit& unit, const Fetched& fetched);
  std::vector<SymbolDay> lifted_marks(const std::vector<import::ParsedRow>& rows);
  void add(std::vector<import::ParsedRow>&& rows,
           const AdjFactors& adj,
           UnitRecord record,
           std::function<void()> on_commit);
  bool commit();

  // run_repair.cpp
  bool repair();
  bool write_repair(const Unit& unit, Fetched& fetched);

  store::BarStore& m_store;
  Provider& m_provider;
  const FetchOptions& m_options;
  const Progress& m_progress;
  const std::string m_name; // the provider's, as the ledger and the bars record it
  FactorChain m_chain;
  WriteBatch m_batch;
  FetchReport m_report;
  std::set<std::string> m_said;
  std::set<domain::Date> m_open_days;               // over the units' days
  std::map<std::string, store::SymbolInfo> m_stored; // the stored symbols when the run began
  std::set<SymbolDay> m_absent;                     // absent_at_source marks
  std::optional<std::int64_t> m_previous_rows;      // the previous open day's of the kind, for D18's 90%
  std::vector<domain::Kind> m_kinds;                // D20: the kinds this run takes
  std::map<domain::Kind, Plan> m_plans;             // each one's plan, from its own ledger rows
  std::set<domain::Kind> m_refused;                 // kinds whose bars API the token may not call
  std::optional<std::string> m_unpublished;         // a kind's last day not yet published (exit 0)
  domain::Date m_last_completed;
  UnitShape m_writing = UnitShape::market_day;        // the shape of the units being written
  std::vector<std::function<void()>> m_on_commit;     // a unit's, once it commits
  std::map<domain::Date, std::size_t> m_repair_left;  // --repair: bars of each day not yet through
  std::size_t m_units_done = 0;
  std::size_t m_units_total = 0;
  std::optional<domain::Date> m_day; // being fetched
  std::string m_symbol;              // being fetched
  std::chrono::milliseconds m_waiting{0};
};

// Return "day" or "symbol": what a unit of `shape` is called in messages.
std::string_view unit_noun(UnitShape shape);

} // namespace ashare::fetch
