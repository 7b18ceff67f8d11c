// D20's ledger per kind (fetch/run.hpp): the kinds a run takes, each planned from its own ledger
// rows (a store fetched before D20 holds the stocks' rows only: its funds and indices are planned
// from scratch, its stocks not again), and a span-shaped kind's days recorded whole once each of
// its symbols is stored through them.
#include "core/fetch/plan.hpp"
#include "core/fetch/run.hpp"
#include "core/fetch/unit_checks.hpp"

#include <algorithm>

namespace ashare::fetch {

std::vector<domain::Kind> Run::kinds_taken() const {
  if (!m_options.symbols.empty()) {
    return {domain::Kind::stock}; // named: one plan, each symbol asked by its code's kind
  }
  std::vector<domain::Kind> kinds;
  const auto provided = m_provider.kinds();
  for (const auto kind : domain::k_kinds) {
    const bool asked = m_options.kinds.empty()
                       || std::find(m_options.kinds.begin(), m_options.kinds.end(), kind) != m_options.kinds.end();
    const bool answered = std::find(provided.begin(), provided.end(), kind) != provided.end();
    if (asked && answered && (kind != domain::Kind::index || !m_options.indices.empty())) {
      kinds.push_back(kind);
    }
  }
  return kinds;
}

bool Run::takes(domain::Kind kind) const {
  return std::find(m_kinds.begin(), m_kinds.end(), kind) != m_kinds.end() && m_refused.count(kind) == 0;
}

domain::Kind Run::kind_of(const std::string& symbol) const {
  if (!m_options.symbols.empty()) {
    return domain::Kind::stock; // a named run's rows are the stocks' (plan.hpp)
  }
  return domain::classify_code(symbol).kind.value_or(domain::Kind::stock);
}

domain::Kind Run::ledger_kind(const Unit& unit, const std::string& symbol) const {
  // D20: a symbol's row is its code's kind's, also in a run naming it (planned as one stock
  // plan): a named fund's or index's day counts for its kind, and plans it next time.
  return symbol.empty() ? unit.kind : domain::classify_code(symbol).kind.value_or(unit.kind);
}

UniverseAsk Run::universe_ask() const {
  UniverseAsk ask{m_options.symbols, {}, m_kinds};
  if (m_options.symbols.empty() && takes(domain::Kind::index)) {
    ask.indices = m_options.indices;
  }
  return ask;
}

Result<Plan> Run::plan_kinds(domain::Date last_completed) {
  m_kinds = kinds_taken();
  Plan merged;
  merged.last_completed = last_completed;
  std::set<domain::Date> days;
  bool first = true;
  for (const auto kind : m_kinds) {
    const PlanRequest request{m_name, m_options.symbols, m_options.from, m_options.to, m_options.refetch};
    // D20: an index added later is planned from its own rows.
    const KindPlan of{kind, kind == domain::Kind::index ? m_options.indices : std::vector<std::string>{}};
    auto plan = plan_fetch(m_store, request, last_completed, of);
    if (!plan) {
      return plan.error();
    }
    days.insert(plan->days.begin(), plan->days.end());
    merged.start = first ? plan->start : std::min(merged.start, plan->start);
    merged.end = plan->end;
    if (kind == domain::Kind::stock) {
      merged.gap_from = plan->gap_from;
    }
    first = false;
    m_plans[kind] = std::move(*plan);
  }
  if (first) { // no kind taken (an empty --indices with --kind index): nothing to do
    merged.start = merged.end = m_options.to ? std::min(*m_options.to, last_completed) : last_completed;
  }
  merged.days.assign(days.begin(), days.end());
  return merged;
}

PlanSize Run::plan_size() {
  PlanSize size;
  const auto days = [this](domain::Kind kind) {
    const auto plan = m_plans.find(kind);
    return plan == m_plans.end() ? std::size_t{0} : plan->second.days.size();
  };
  size.stock_days = days(domain::Kind::stock);
  size.fund_days = days(domain::Kind::fund);
  size.index_days = days(domain::Kind::index);
  size.named = !m_options.symbols.empty();
  std::vector<std::string> symbols = m_options.symbols;
  if (!size.named) {
    for (const auto& info : m_store.load_symbols()) {
      symbols.push_back(info.symbol);
    }
  }
  for (const auto& symbol : symbols) {
    const auto kind = domain::classify_code(symbol).kind;
    const bool counted = size.named || (kind && *kind != domain::Kind::index && takes(*kind));
    if (counted && kind) {
      ++(*kind == domain::Kind::stock ? size.stocks : *kind == domain::Kind::fund ? size.funds : size.indices);
    }
  }
  if (!size.named && takes(domain::Kind::index)) {
    size.indices = m_options.indices.size();
  }
  return size;
}

std::optional<std::string> Run::indices_unpublished(domain::Date day) {
  // D20: a named index without a bar on the last completed day is not yet published (Tushare
  // refreshes index_daily twice a day): the indices' day is asked again next run. What the others
  // answered for it stays; the empty rows go, so that those are asked again.
  std::vector<store::LedgerDay> answered;
  std::string missing;
  for (const auto& row : m_store.market().load_ledger(m_name)) {
    if (row.kind == domain::Kind::index && row.trade_date == day && !row.symbol.empty()) {
      if (row.rows > 0) {
        answered.push_back(row);
      } else {
        missing += (missing.empty() ? "" : ", ") + row.symbol;
      }
    }
  }
  if (missing.empty()) {
    return std::nullopt;
  }
  forget_staged_day(m_store, m_name, day, domain::Kind::index);
  for (const auto& row : answered) {
    m_store.market().save_ledger_day(row);
  }
  return m_provider.display_name() + " has no bar of " + missing + " for " + day.iso()
         + ": the indices' day is not yet published; it will be asked for again next run";
}

void Run::record_whole_market(domain::Kind kind) {
  // D18: a day enters the ledger whole for a kind once every symbol of the kind is stored through it.
  const auto found = m_plans.find(kind);
  if (found == m_plans.end() || found->second.days.empty() || !takes(kind)) {
    return;
  }
  const auto& plan = found->second;
  auto bars_on = staged_bars_by_day(m_store, m_name, kind);
  auto previous = whole_market_rows_before(m_store, m_name, plan.days.front(), kind);
  store::WriteTransaction transaction(m_store);
  for (const auto day : plan.days) {
    const auto bars = bars_on[day];
    std::optional<std::string> why;
    if (day == plan.last_completed) {
      why = kind != domain::Kind::index ? not_yet_published(day, bars, previous, m_provider.display_name())
            : m_provider.indices_lag() ? indices_unpublished(day)
                                       : std::nullopt;
    }
    if (why) {
      if (kind != domain::Kind::index) {
        // Its staged rows go, so that every symbol is asked for it again next run (the bars
        // written stay: a later answer replaces them).
        forget_staged_day(m_store, m_name, day, kind);
      }
      m_unpublished = why;
      break;
    }
    if (bars == 0 && kind == domain::Kind::stock) { // a market's day without a stock's bar
      warn(m_provider.display_name() + " answered no bars for " + day.iso() + ": recorded as an empty day");
    }
    record_whole_day(m_store, m_name, day, bars, kind);
    previous = bars;
  }
  transaction.commit();
}

std::size_t Run::whole_days_through(const Plan& plan) {
  // The days of the merged plan, from its first, that every kind planning them now holds whole.
  std::set<std::pair<domain::Kind, domain::Date>> whole;
  for (const auto& row : m_store.market().load_ledger(m_name)) {
    if (row.symbol.empty()) {
      whole.emplace(row.kind, row.trade_date);
    }
  }
  std::size_t count = 0;
  for (const auto day : plan.days) {
    for (const auto& [kind, kind_plan] : m_plans) {
      const bool planned = std::binary_search(kind_plan.days.begin(), kind_plan.days.end(), day);
      if (planned && takes(kind) && whole.count({kind, day}) == 0) {
        return count;
      }
    }
    ++count;
  }
  return count;
}

} // namespace ashare::fetch
