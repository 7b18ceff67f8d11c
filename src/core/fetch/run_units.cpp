// A plan's units (fetch/run.hpp): asked ahead of their writing, checked, recorded and committed.
#include "core/fetch/ask_ahead.hpp"
#include "core/fetch/plan.hpp"
#include "core/fetch/run.hpp"
#include "core/fetch/unit_checks.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ashare::fetch {
namespace {

// Units answered and not yet written, at most.
constexpr std::size_t k_units_ahead = 2;

// A market's days written while the next one is already at hand share a transaction, up to this
// long (WriteBatch): a fast source is written at the importer's pace, a slow one a day at a time,
// and no transaction waits on the source for longer. A symbol's span waits for none: the next
// symbol may hang on a host for the whole timeout, and what was answered before it must be kept
// (a symbol's commit costs well under a millisecond).
std::chrono::milliseconds group_window(UnitShape shape) {
  return shape == UnitShape::market_day ? std::chrono::milliseconds(500) : std::chrono::milliseconds(0);
}

} // namespace

bool Run::fetch_plan(const Plan& plan) {
  for (const auto day : m_store.market().load_open_days(plan.start.plus_days(-30), plan.end)) {
    m_open_days.insert(day);
  }
  for (auto& info : m_store.load_symbols()) {
    auto symbol = info.symbol;
    m_stored.emplace(std::move(symbol), std::move(info));
  }
  m_absent = load_absence_marks(m_store);
  if (!refresh(m_provider.references(universe_ask(), waiting_here()))) {
    return false;
  }
  const bool named = !m_options.symbols.empty();
  if (m_provider.market_shape() == UnitShape::market_day) {
    for (const auto kind : {domain::Kind::stock, domain::Kind::fund}) {
      if (!fetch_market_kind(kind)) {
        return false;
      }
    }
  }
  // The spans: TDX's every symbol, Tushare's indices (D20).
  const auto spans = named && m_provider.market_shape() == UnitShape::market_day ? std::vector<Unit>{} : symbol_spans();
  if (!spans || !ask_and_write(*spans, &Run::write_symbol_span)) {
    return false;
  }
  if (named) {
    // A run naming symbols leaves them staged: no day whole.
    m_report.days_stored = m_provider.market_shape() == UnitShape::market_day ? m_report.days_stored : plan.days.size();
    return m_report.end == FetchEnd::done;
  }
  for (const auto kind : m_kinds) {
    if (m_provider.market_shape() == UnitShape::symbol_span || kind == domain::Kind::index) {
      record_whole_market(kind);
    }
  }
  if (m_unpublished && m_report.end == FetchEnd::done) {
    stop(FetchEnd::not_yet_published, *m_unpublished);
  }
  return m_report.end == FetchEnd::done;
}

bool Run::fetch_market_kind(domain::Kind kind) {
  const auto found = m_plans.find(kind);
  if (found == m_plans.end() || found->second.days.empty() || !takes(kind)) {
    return true;
  }
  const auto& plan = found->second;
  m_previous_rows = whole_market_rows_before(m_store, m_name, plan.days.front(), kind);
  return continue_chains_backward(plan, kind) && ask_and_write(market_days(plan, kind), &Run::write_market_day);
}

std::vector<Unit> Run::market_days(const Plan& plan, domain::Kind kind) {
  std::vector<Unit> units;
  for (const auto day : plan.days) {
    Unit unit{UnitShape::market_day, m_options.symbols, {day}, std::nullopt};
    unit.kind = kind;
    units.push_back(std::move(unit));
  }
  // The first day's step divides by each symbol's cumulative factor on the open day before it:
  // asked too when a stored history of the kind ends before that day (a chain to continue).
  const auto first = plan.days.front();
  const bool continued = std::any_of(m_stored.begin(), m_stored.end(), [&](const auto& stored) {
    return stored.second.last_date < first && kind_of(stored.first) == kind;
  });
  if (continued) {
    units.front().factors_before = find_open_day_before(m_store, first);
  }
  return units;
}

std::optional<std::vector<Unit>> Run::symbol_spans() {
  auto universe = m_provider.universe(universe_ask());
  if (const auto* why = std::get_if<Stop>(&universe)) {
    stop(*why);
    return std::nullopt;
  }
  // A symbol staged through a day by a run cut short (or an index holding its own row, D20) is
  // not asked for it again.
  const auto staged = m_options.refetch ? std::set<SymbolDay>{} : load_staged(m_store, m_name);
  std::vector<Unit> units;
  for (auto& symbol : std::get<std::vector<std::string>>(universe)) {
    const auto kind = kind_of(symbol);
    const auto plan = m_plans.find(kind);
    const bool by_day = m_provider.market_shape() == UnitShape::market_day && kind != domain::Kind::index;
    if (plan == m_plans.end() || !takes(kind) || by_day) {
      continue;
    }
    Unit unit{UnitShape::symbol_span, {symbol}, {}, std::nullopt};
    unit.kind = kind;
    for (const auto day : plan->second.days) {
      if (staged.count({symbol, day}) == 0) {
        unit.days.push_back(day);
      }
    }
    units.push_back(std::move(unit));
  }
  return units;
}

bool Run::continue_chains_backward(const Plan& plan, domain::Kind kind) {
  // D18: a stored history that starts after the first day asked is continued backwards from its
  // first bar, so that the join has no step: its bars up to that bar, asked as a span.
  const auto first_day = plan.days.front();
  const std::set<std::string> named(m_options.symbols.begin(), m_options.symbols.end());
  for (const auto& [symbol, info] : m_stored) {
    if ((!named.empty() && named.count(symbol) == 0) || kind_of(symbol) != kind || !(first_day < info.first_date)) {
      continue;
    }
    Unit span{UnitShape::symbol_span,
              {symbol},
              m_store.market().load_open_days(first_day, info.first_date),
              std::nullopt};
    span.kind = kind;
    m_open_days.insert(span.days.begin(), span.days.end());
    auto asked = m_provider.fetch(span, waiting_here());
    if (const auto* why = std::get_if<Stop>(&asked)) {
      return stop(*why);
    }
    const auto& fetched = std::get<Fetched>(asked);
    warn_all(fetched.warnings);
    if (fetched.kind_refused) {
      m_refused.insert(kind);
      return true;
    }
    if (refuse_closed_day_bar(span, fetched)) {
      return false;
    }
    m_chain.continue_backward(symbol, info.first_date, fetched.rows, fetched.span_adj);
  }
  return true;
}

bool Run::ask_and_write(const std::vector<Unit>& all, UnitWriter write) {
  std::vector<Unit> units;
  std::copy_if(all.begin(), all.end(), std::back_inserter(units), [](const Unit& unit) { return !unit.days.empty(); });
  m_units_total += all.size();
  m_units_done += all.size() - units.size(); // staged through every day by a run cut short
  m_writing = units.empty() ? m_writing : units.front().shape;
  AskAhead<Unit, Asked, std::chrono::milliseconds> ahead(
      units, k_units_ahead,
      [this](const Unit& unit, const std::function<void(std::chrono::milliseconds)>& tell) {
        return m_provider.fetch(unit, tell);
      },
      [](const Asked& asked) { return std::holds_alternative<Stop>(asked); });
  const auto told = [this](const std::chrono::milliseconds& waiting) {
    m_waiting = waiting;
    tell();
  };
  for (const auto& unit : units) {
    show(&unit);
    auto asked = ahead.take(told);
    const auto* why = asked ? std::get_if<Stop>(&*asked) : nullptr;
    if (!asked || why != nullptr || !(this->*write)(unit, std::get<Fetched>(*asked))) {
      if (why != nullptr) {
        stop(*why);
      }
      (void)commit(); // the units before the one that stopped the run are whole: they stay
      return false;
    }
    ++m_units_done;
    if (!ahead.at_hand_within(group_window(m_writing) - m_batch.age(), told) && !commit()) {
      return false;
    }
  }
  if (!commit()) {
    return false;
  }
  show(nullptr);
  return true;
}

bool Run::judge(std::vector<BarProblem> problems, const Fetched& fetched, UnitShape shape) {
  auto verdict = judge_problems(std::move(problems), fetched.where, unit_noun(shape), m_options.skip_invalid);
  if (verdict.refusal) {
    return stop(FetchEnd::refused_row, *verdict.refusal);
  }
  warn_all(verdict.warnings);
  return true;
}

bool Run::refuse_closed_day_bar(const Unit& unit, const Fetched& fetched) {
  // D18: a bar on a closed day within a symbol's span is refused whatever --skip-invalid says: the
  // next bar's pre_close, and so its factor, came from it.
  const auto* row = find_bar_on_closed_day(fetched.rows, unit.days.front(), unit.days.back(), m_open_days);
  if (row == nullptr) {
    return false;
  }
  const auto day = row->bar.trade_date.iso();
  stop(FetchEnd::refused_row, fetched.where + ": " + row->symbol + " on " + day
                                  + ": trade_date: a bar on the closed day " + day
                                  + "; nothing of that symbol was written");
  return true;
}

std::vector<SymbolDay> Run::lifted_marks(const std::vector<import::ParsedRow>& rows) {
  std::vector<SymbolDay> gone;
  for (const auto& row : rows) {
    if (m_absent.erase({row.symbol, row.bar.trade_date}) != 0) {
      gone.emplace_back(row.symbol, row.bar.trade_date); // a bar came after all
    }
  }
  return gone;
}

bool Run::write_market_day(const Unit& unit, Fetched& fetched) {
  const auto day = unit.days.front();
  const bool whole = unit.symbols.empty();
  warn_all(fetched.warnings);
  if (fetched.kind_refused) {
    m_refused.insert(unit.kind); // D20: the kind is left out, the run goes on
    return true;
  }
  const auto answered = static_cast<std::int64_t>(fetched.answered);
  if (whole && day == m_last_completed) {
    if (auto why = not_yet_published(day, answered, m_previous_rows, m_provider.display_name())) {
      m_unpublished = std::move(why); // asked again next run; the other kinds go on (D20)
      return true;
    }
  }
  if (answered == 0) {
    warn(m_provider.display_name() + " answered no bars for " + day.iso() + ": recorded as an empty day");
  }
  auto problems = take_rows_of_other_days(fetched.rows, day, m_open_days);
  problems.insert(problems.end(), fetched.problems.begin(), fetched.problems.end());
  if (!judge(std::move(problems), fetched, UnitShape::market_day)) {
    return false;
  }
  m_previous_rows = answered;
  for (const auto& [symbol, adj] : fetched.adj_before) {
    m_chain.remember_adj(symbol, *unit.factors_before, adj);
  }
  UnitRecord record{{}, std::move(fetched.suspensions), lifted_marks(fetched.rows), {}};
  for (const auto& symbol : whole ? std::vector<std::string>{""} : unit.symbols) {
    record.ledger.push_back({m_name, day, symbol, answered, ledger_kind(unit, symbol)});
  }
  // The days a whole-market run stored are counted once every kind is through (fetch_plan).
  add(std::move(fetched.rows), fetched.adj, std::move(record), [this, whole] { m_report.days_stored += whole ? 0 : 1; });
  return true;
}

bool Run::write_symbol_span(const Unit& unit, Fetched& fetched) {
  const auto& symbol = unit.symbols.front();
  warn_all(fetched.warnings);
  if (fetched.kind_refused) {
    m_refused.insert(unit.kind); // D20: the kind is left out, the run goes on
    return true;
  }
  const std::set<domain::Date> wanted(unit.days.begin(), unit.days.end());
  std::vector<BarProblem> problems;
  std::copy_if(fetched.problems.begin(), fetched.problems.end(), std::back_inserter(problems),
               [&](const BarProblem& problem) { return wanted.count(problem.day) != 0; }); // else a base only
  if (!judge(std::move(problems), fetched, UnitShape::symbol_span) || refuse_closed_day_bar(unit, fetched)) {
    return false;
  }
  std::vector<import::ParsedRow> kept;
  std::set<domain::Date> answered;
  for (const auto& row : fetched.rows) {
    if (wanted.count(row.bar.trade_date) != 0) {
      kept.push_back(row);
      answered.insert(row.bar.trade_date);
    }
  }
  const auto stored = m_stored.find(symbol);
  if (!kept.empty() && stored != m_stored.end() && kept.front().bar.trade_date < stored->second.first_date) {
    m_chain.continue_backward(symbol, stored->second.first_date, fetched.rows, fetched.span_adj);
  }
  UnitRecord record{{}, std::move(fetched.suspensions), lifted_marks(kept), {}};
  for (const auto day : unit.days) {
    record.ledger.push_back({m_name, day, symbol, answered.count(day) != 0 ? 1 : 0, ledger_kind(unit, symbol)});
  }
  add(std::move(kept), fetched.adj, std::move(record), [this] { ++m_report.symbols_stored; });
  return true;
}

void Run::add(std::vector<import::ParsedRow>&& rows,
              const AdjFactors& adj,
              UnitRecord record,
              std::function<void()> on_commit) {
  const auto origins = m_chain.settle(rows, adj);
  m_batch.add(std::move(rows), origins,
              [record = std::move(record)](store::BarStore& store) { save_record(store, record); });
  m_on_commit.push_back(std::move(on_commit));
}

bool Run::commit() {
  const auto committed = m_batch.commit();
  const auto done = std::exchange(m_on_commit, {});
  if (!committed) {
    return stop(FetchEnd::refused, m_name + ": " + committed.error().message + "; nothing of the "
                                       + std::string(unit_noun(m_writing)) + "s since the last commit was written");
  }
  m_report.rows += committed->rows;
  for (const auto& on_commit : done) {
    on_commit();
  }
  return true;
}

} // namespace ashare::fetch
