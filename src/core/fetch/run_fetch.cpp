#include "core/fetch/run_fetch.hpp"

#include "core/fetch/plan.hpp"
#include "core/fetch/references.hpp"
#include "core/fetch/run.hpp"
#include "core/store/fetch_lock.hpp"
#include "core/store/locator.hpp"

#include <utility>

namespace ashare::fetch {

std::string_view unit_noun(UnitShape shape) {
  return shape == UnitShape::market_day ? "day" : "symbol";
}

Run::Run(store::BarStore& store, Provider& provider, const FetchOptions& options, const Progress& progress)
    : m_store(store), m_provider(provider), m_options(options), m_progress(progress),
      m_name(provider.name()), m_chain(store), m_batch(store, m_name) {}

bool Run::stop(FetchEnd end, std::string message) {
  m_report.end = end;
  m_report.message = std::move(message);
  return false;
}

void Run::warn(const std::string& warning) {
  if (m_said.insert(warning).second) {
    m_report.warnings.push_back(warning);
  }
}

void Run::warn_all(const std::vector<std::string>& warnings) {
  for (const auto& warning : warnings) {
    warn(warning);
  }
}

bool Run::refresh(const References& references) {
  warn_all(references.warnings);
  if (references.stop) {
    return stop(*references.stop);
  }
  warn_all(save_references(m_store, references));
  return true;
}

void Run::tell() {
  if (m_progress) {
    m_progress(FetchProgress{m_units_done, m_units_total, m_report.rows, m_provider.requests(), m_day,
                             m_symbol, m_waiting});
  }
}

void Run::show(const Unit* unit) {
  const bool market_day = unit != nullptr && unit->shape == UnitShape::market_day;
  m_day = market_day ? std::optional(unit->days.front()) : std::nullopt;
  m_symbol = unit != nullptr && !market_day ? unit->symbols.front() : std::string();
  m_waiting = std::chrono::milliseconds(0);
  tell();
}

Waiting Run::waiting_here() {
  // Asked on the run's own thread: told at once.
  return [this](std::chrono::milliseconds waiting) {
    m_waiting = waiting;
    tell();
  };
}

void Run::run_plan(const Plan& plan) {
  if (m_options.repair && !m_options.dry_run) {
    (void)repair();
  } else if (m_options.dry_run) {
    auto size = plan_size();
    size.members = members_asked(plan).size();
    m_report.estimated_requests = m_provider.estimate(size);
    m_report.end = FetchEnd::planned;
  } else if (plan.days.empty()) {
    m_report.end = FetchEnd::up_to_date;
    (void)fetch_members(plan); // D20: an index newly named for its membership
  } else {
    const bool fetched = fetch_plan(plan);
    if (m_options.symbols.empty()) {
      m_report.days_stored = whole_days_through(plan); // D20: whole for every kind taken
    }
    if (fetched || m_report.end == FetchEnd::not_yet_published) {
      (void)fetch_members(plan); // D20: after the bars, whose days it does not hold up
    }
  }
}

FetchReport Run::run() {
  // D19: the calendar first, as the plan reads it; --dry-run asks nothing.
  if (!m_options.dry_run
      && !refresh(m_provider.calendar(utc8_day(m_options.now).date, m_options.from, waiting_here()))) {
    return m_report;
  }
  const auto last = last_completed_day(m_store, m_options.now);
  if (!last) {
    stop(FetchEnd::refused, last.error().message);
    return m_report;
  }
  const auto plan = plan_kinds(*last); // D20: each kind from its own ledger rows
  if (!plan) {
    stop(FetchEnd::refused, plan.error().message);
    return m_report;
  }
  m_report.plan = *plan;
  m_last_completed = *last;
  run_plan(*plan);
  m_report.requests = m_provider.requests();
  finish_report(m_store, m_name, m_options, m_report);
  return m_report;
}

FetchReport run_fetch(const std::string& locator,
                      Provider& provider,
                      const FetchOptions& options,
                      const Progress& progress) {
  const auto lock = store::FetchLock::try_take(locator);
  if (!lock) {
    FetchReport report;
    report.end = FetchEnd::another_running;
    report.message = "another fetch is running on this store (" + store::redacted_locator(locator)
                     + "); nothing done";
    return report;
  }
  const auto store = store::open_bar_store(locator);
  return Run(*store, provider, options, progress).run();
}

} // namespace ashare::fetch
