#include "core/members/snapshot_spans.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ashare::members {

using domain::Date;
using store::MemberSpan;

std::vector<MemberSpan> spans_of_snapshots(const std::string& index_symbol,
                                           std::span<const Snapshot> snapshots,
                                           const OpenDays& days) {
  std::vector<MemberSpan> spans;
  std::map<std::string, Date> open; // a member since
  for (const auto& snapshot : snapshots) {
    const Date effective = days.on_or_after(snapshot.day);
    const std::set<std::string> named(snapshot.symbols.begin(), snapshot.symbols.end());
    for (auto it = open.begin(); it != open.end();) {
      if (named.contains(it->first)) {
        ++it;
        continue;
      }
      // Not named: a member until the open day before this snapshot.
      spans.push_back({index_symbol, it->first, it->second, days.before(effective),
                       store::MemberSource::tushare});
      it = open.erase(it);
    }
    for (const auto& symbol : named) {
      open.emplace(symbol, effective); // kept when already a member
    }
  }
  for (const auto& [symbol, first] : open) {
    spans.push_back({index_symbol, symbol, first, std::nullopt, store::MemberSource::tushare});
  }
  std::sort(spans.begin(), spans.end(), [](const MemberSpan& a, const MemberSpan& b) {
    return std::tie(a.symbol, a.first_date) < std::tie(b.symbol, b.first_date);
  });
  return spans;
}

void refresh_tushare_spans(store::MarketRecord& market, const std::string& index_symbol) {
  std::vector<Snapshot> snapshots;
  for (const auto day : market.load_snapshot_days(index_symbol)) {
    auto& snapshot = snapshots.emplace_back(Snapshot{day, {}});
    for (const auto& member : market.load_snapshot(index_symbol, day)) {
      snapshot.symbols.push_back(member.symbol);
    }
  }
  market.save_member_spans(index_symbol, store::MemberSource::tushare,
                           spans_of_snapshots(index_symbol, snapshots, load_open_days(market)));
}

} // namespace ashare::members
