// D20: an index's members read from a data store's market record: what the members route (and
// so `ashare members`) answers, from the one source that answers for the index.
#pragma once

#include "core/domain/date.hpp"
#include "core/members/member_list.hpp"
#include "core/store/market_record.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ashare::members {

// The members of an index as read: from `source`, the spans in force on a day or every span.
struct MemberRead {
  store::MemberSource source = store::MemberSource::tushare;
  bool known = false; // the index has spans of that source (else D20's 404)
  std::vector<Member> members;
};

// Return the day `day` answers by `market`'s calendar: itself when open (or outside the
// calendar), else the last open day before it.
domain::Date answered_day(store::MarketRecord& market, domain::Date day);

// Return the members of `index_symbol` on `day` (an answered_day()) from the source that answers
// (answering_source(), `asked` when given), named by the store's listings, by symbol.
MemberRead load_members_on(store::MarketRecord& market,
                           const std::string& index_symbol,
                           domain::Date day,
                           std::optional<store::MemberSource> asked);

// Return every span of `index_symbol` from the source that answers, by symbol then first day.
MemberRead load_member_history(store::MarketRecord& market,
                               const std::string& index_symbol,
                               std::optional<store::MemberSource> asked);

} // namespace ashare::members
