// --repair (fetch/run.hpp; D19): ask again for each `missing` bar, in units of the provider's
// shape (a day's missing symbols, or a symbol's missing days), and mark what the source lacks too
// absent_at_source. Nothing enters the ledger.
#include "core/fetch/gaps.hpp"
#include "core/fetch/run.hpp"
#include "core/fetch/unit_checks.hpp"

#include <algorithm>
#include <iterator>

namespace ashare::fetch {
namespace {

// The units asking again for `missing` bars, by (day, symbols) and (symbol, days).
std::vector<Unit> repair_units(UnitShape shape,
                               const std::map<domain::Date, std::vector<std::string>>& by_day,
                               const std::map<std::string, std::vector<domain::Date>>& by_symbol) {
  std::vector<Unit> units;
  if (shape == UnitShape::market_day) {
    for (const auto& [day, symbols] : by_day) {
      units.push_back({shape, symbols, {day}, std::nullopt});
    }
  } else {
    for (const auto& [symbol, days] : by_symbol) {
      units.push_back({shape, {symbol}, days, std::nullopt});
    }
  }
  return units;
}

} // namespace

bool Run::repair() {
  const auto gaps = find_gaps(m_store, {m_options.symbols, m_options.from, m_options.to});
  if (!gaps) {
    return stop(FetchEnd::refused, gaps.error().message);
  }
  std::map<domain::Date, std::vector<std::string>> by_day;
  std::map<std::string, std::vector<domain::Date>> by_symbol;
  for (const auto& gap : gaps->gaps) {
    if (gap.reason == GapReason::missing) {
      by_day[gap.day].push_back(gap.symbol);
      by_symbol[gap.symbol].push_back(gap.day);
    }
  }
  m_report.plan->days.clear(); // what the report calls the days fetched: those asked again
  for (const auto& [day, symbols] : by_day) {
    m_report.plan->days.push_back(day);
    m_repair_left[day] = symbols.size();
  }
  if (by_day.empty()) {
    m_report.end = FetchEnd::up_to_date;
    return true;
  }
  for (const auto day :
       m_store.market().load_open_days(by_day.begin()->first, by_day.rbegin()->first)) {
    m_open_days.insert(day);
  }
  m_absent = load_absence_marks(m_store);
  return ask_and_write(repair_units(m_provider.market_shape(), by_day, by_symbol), &Run::write_repair);
}

bool Run::write_repair(const Unit& unit, Fetched& fetched) {
  warn_all(fetched.warnings);
  std::set<SymbolDay> asked;
  for (const auto& symbol : unit.symbols) {
    for (const auto day : unit.days) {
      asked.emplace(symbol, day);
    }
  }
  auto problems = unit.shape == UnitShape::market_day
                      ? take_rows_of_other_days(fetched.rows, unit.days.front(), m_open_days)
                      : std::vector<BarProblem>{};
  std::copy_if(fetched.problems.begin(), fetched.problems.end(), std::back_inserter(problems),
               [&](const BarProblem& problem) { return asked.count({problem.symbol, problem.day}) != 0; });
  if (!judge(problems, fetched, unit.shape)
      || (unit.shape == UnitShape::symbol_span && refuse_closed_day_bar(unit, fetched))) {
    return false;
  }
  // A bar the source has but that fails a check is no absence: the day stays missing.
  std::set<SymbolDay> answered;
  for (const auto& problem : problems) {
    answered.emplace(problem.symbol, problem.day);
  }
  std::vector<import::ParsedRow> found;
  for (auto& row : fetched.rows) {
    if (asked.count({row.symbol, row.bar.trade_date}) != 0) {
      answered.emplace(row.symbol, row.bar.trade_date);
      found.push_back(std::move(row));
    }
  }
  UnitRecord record{{}, std::move(fetched.suspensions), {}, {}};
  for (const auto& [symbol, day] : asked) {
    if (answered.count({symbol, day}) == 0 && m_absent.emplace(symbol, day).second) {
      record.marks_new.push_back({symbol, day, m_name}); // asked again, and the source has none either
    }
  }
  m_report.absent_marked += static_cast<std::int64_t>(record.marks_new.size());
  add(std::move(found), fetched.adj, std::move(record), [this, asked, shape = unit.shape] {
    for (const auto& [symbol, day] : asked) {
      if (--m_repair_left[day] == 0) {
        ++m_report.days_stored;
      }
    }
    if (shape == UnitShape::symbol_span) {
      ++m_report.symbols_stored;
    }
  });
  return true;
}

} // namespace ashare::fetch
