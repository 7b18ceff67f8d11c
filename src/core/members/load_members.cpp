#include "core/members/load_members.hpp"

#include "core/members/open_days.hpp"

#include <algorithm>
#include <map>

namespace ashare::members {
namespace {

using domain::Date;
using store::MemberSource;
using store::MemberSpan;

// The longest run of closed days the calendar has had is well under this: the window read to
// find the open day on or before a day.
constexpr int k_closed_run_days = 60;

// The spans of `index_symbol` from the source that answers, and that source.
std::pair<MemberSource, std::vector<MemberSpan>>
answering_spans(store::MarketRecord& market,
                const std::string& index_symbol,
                std::optional<MemberSource> asked) {
  if (asked) {
    return {*asked, market.load_member_spans(index_symbol, *asked)};
  }
  auto imported = market.load_member_spans(index_symbol, MemberSource::import);
  if (!imported.empty()) {
    return {MemberSource::import, std::move(imported)};
  }
  return {MemberSource::tushare, market.load_member_spans(index_symbol, MemberSource::tushare)};
}

std::map<std::string, std::string> listing_names(store::MarketRecord& market) {
  std::map<std::string, std::string> names;
  for (auto& listing : market.load_listings()) {
    names.emplace(std::move(listing.symbol), std::move(listing.name));
  }
  return names;
}

// D20: the snapshot in force on `day`, the last one dated on or before it (none before the
// first).
std::vector<store::MemberWeight>
snapshot_in_force(store::MarketRecord& market, const std::string& index_symbol, Date day) {
  const auto days = market.load_snapshot_days(index_symbol);
  const auto after = std::upper_bound(days.begin(), days.end(), day);
  if (after == days.begin()) {
    return {};
  }
  return market.load_snapshot(index_symbol, *std::prev(after));
}

} // namespace

Date answered_day(store::MarketRecord& market, Date day) {
  const auto span = market.load_calendar_span();
  if (!span || day < span->first || day > span->second) {
    return day;
  }
  const Date from = std::max(span->first, day.plus_days(-k_closed_run_days));
  return OpenDays(market.load_open_days(from, day), std::pair{from, day}).on_or_before(day);
}

MemberRead load_members_on(store::MarketRecord& market,
                           const std::string& index_symbol,
                           Date day,
                           std::optional<MemberSource> asked) {
  // Only the spans in force on the day are read: CSI 300's announcements hold 1,225 spans and a
  // day 300 (issue 44's one-shot figure).
  const auto source =
      answering_source(market.has_member_spans(index_symbol, MemberSource::import), asked);
  if (!market.has_member_spans(index_symbol, source)) {
    return {source, false, {}};
  }
  const auto spans = market.load_member_spans_on(index_symbol, source, day);
  const auto snapshot = source == MemberSource::tushare
                            ? snapshot_in_force(market, index_symbol, day)
                            : std::vector<store::MemberWeight>{};
  return {source, true, members_on(spans, day, snapshot, listing_names(market))};
}

MemberRead load_member_history(store::MarketRecord& market,
                               const std::string& index_symbol,
                               std::optional<MemberSource> asked) {
  auto [source, spans] = answering_spans(market, index_symbol, asked);
  if (spans.empty()) {
    return {source, false, {}};
  }
  return {source, true, every_member(spans, listing_names(market))};
}

} // namespace ashare::members
