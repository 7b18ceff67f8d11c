// D20's index membership in a fetch run (fetch/run.hpp): after the bars, each index of --members
// (ASHARE_MEMBERS, `members`, D20's three) is asked for its snapshots over one window, from a
// provider that answers membership (Tushare's `index_weight`, one call per index and window,
// paged), stored as fetched, and its spans derived again from every snapshot stored
// (members/snapshot_spans.hpp). A run that fetches no day asks only the indices with no snapshot
// stored yet: membership changes monthly, but one named later is had at once.
#include "core/fetch/run.hpp"
#include "core/members/snapshot_spans.hpp"

#include <algorithm>

namespace ashare::fetch {

bool Run::takes_members() const {
  const auto& kinds = m_options.kinds;
  return m_options.symbols.empty() && m_provider.answers_members() && !m_options.members.empty()
         && (kinds.empty() || std::find(kinds.begin(), kinds.end(), domain::Kind::index) != kinds.end());
}

std::pair<domain::Date, domain::Date> Run::members_window(const std::string& index, const Plan& plan) {
  // --from or --refetch ask the plan's window again; else the days after the index's last stored
  // snapshot. An index without one is asked from a month before the plan's first day, so that
  // the snapshot in force on that day is had (Tushare dates one a month).
  const auto days = m_store.market().load_snapshot_days(index);
  if (days.empty() || m_options.from || m_options.refetch) {
    return {plan.start.plus_days(-31), plan.end};
  }
  return {days.back().plus_days(1), plan.end};
}

std::vector<std::string> Run::members_asked(const Plan& plan) {
  if (!takes_members()) {
    return {};
  }
  if (!plan.days.empty()) {
    return m_options.members;
  }
  // D20: an up-to-date run asks an index newly named (--members, ASHARE_MEMBERS, `members`) over
  // the window a run with days would; one already stored waits for a run with days, whose
  // window starts after its last snapshot and so takes those Tushare files 11-21 days late.
  std::vector<std::string> asked;
  for (const auto& index : m_options.members) {
    if (m_store.market().load_snapshot_days(index).empty()) {
      asked.push_back(index);
    }
  }
  return asked;
}

bool Run::fetch_members(const Plan& plan) {
  for (const auto& index : members_asked(plan)) {
    const auto [first, last] = members_window(index, plan);
    if (last < first) {
      continue;
    }
    auto asked = m_provider.members(index, first, last, waiting_here());
    if (const auto* why = std::get_if<Stop>(&asked)) {
      return stop(*why);
    }
    const auto& snapshots = std::get<Snapshots>(asked);
    warn_all(snapshots.warnings); // refused: said once, the others asked nothing more
    if (snapshots.by_day.empty()) {
      continue;
    }
    store::WriteTransaction transaction(m_store);
    for (const auto& [day, members] : snapshots.by_day) {
      m_store.market().save_snapshot(index, day, members);
    }
    m_report.snapshots_stored += snapshots.by_day.size();
    members::refresh_tushare_spans(m_store.market(), index);
    m_store.finish_change(""); // D17: what the members route answers changed
    transaction.commit();
  }
  return true;
}

} // namespace ashare::fetch
