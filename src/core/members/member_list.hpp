// D20: an index's members as `ashare members` and the members route answer them: the spans in
// force on a day, with the weight of the snapshot in force, or every span; and the one source
// that answers for an index.
#pragma once

#include "core/domain/date.hpp"
#include "core/store/market_record.hpp"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::members {

// One member's span as answered.
struct Member {
  std::string symbol;
  std::string name; // the listing's; empty when the store has none
  domain::Date first_date;
  std::optional<domain::Date> last_date; // nullopt while a member
  std::optional<double> weight;          // percent, the snapshot's in force (tushare only)
  store::MemberSource source = store::MemberSource::tushare;

  bool operator==(const Member&) const = default;
};

// Return the word of `source` ("tushare", "import"), as the store, the route and the command
// line spell it.
std::string_view source_name(store::MemberSource source);

// Return the source named `word`, or nullopt.
std::optional<store::MemberSource> parse_source(std::string_view word);

// Return the source that answers for an index: `asked` when given, else import when the index
// `has_imported` spans (exact: from the announcements), else tushare.
store::MemberSource answering_source(bool has_imported, std::optional<store::MemberSource> asked);

// Return the spans of `spans` in force on `day` (first_date <= day <= last_date), in their
// order, named from `names` (symbol -> name), each with its weight in `snapshot` (the snapshot
// in force on `day`; none for imported spans).
std::vector<Member> members_on(std::span<const store::MemberSpan> spans,
                               domain::Date day,
                               std::span<const store::MemberWeight> snapshot,
                               const std::map<std::string, std::string>& names);

// Return every span of `spans`, in their order, named from `names`, without weights.
std::vector<Member> every_member(std::span<const store::MemberSpan> spans,
                                 const std::map<std::string, std::string>& names);

} // namespace ashare::members
