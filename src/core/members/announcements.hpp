// D20: an index company's announced membership as a file, what `import --format members --index
// CODE FILE` reads: CSV `symbol,name,opt-in,opt-out` (UTF-8, a byte order mark allowed; `name`
// optional), a row per span; `symbol` qlib's `SH600000` or D1's `600000.SH`; `opt-in` the first
// day a member, `opt-out` the first day no longer one, empty while a member.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/members/open_days.hpp"
#include "core/store/market_record.hpp"

#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ashare::members {

// One row of the file, as written.
struct AnnouncedSpan {
  std::int64_t line = 0;
  std::string symbol; // canonical
  domain::Date opt_in;
  std::optional<domain::Date> opt_out;
};

// What the file holds: its spans, and a warning per row left out (naming its line).
struct Announcements {
  std::vector<AnnouncedSpan> rows;
  std::vector<std::string> warnings;
};

// Return whether `header` (a first row's fields) is a membership file's: symbol, opt-in and
// opt-out among them.
bool is_announcement_header(const std::vector<std::string>& header);

// Parse the membership file `in` (`name` says it in messages). A row without opt-in is left out
// with a warning; a malformed symbol or date, or a row of too few fields, is INVALID_INPUT naming
// its line; so is a file without the header.
Result<Announcements> parse_announcements(std::istream& in, const std::string& name);

// Return the spans of `index_symbol` that `rows` give, source import, by symbol then first day:
// a date on a closed day moves to the next open day (`days`), the last day a member is the open
// day before opt-out, and a symbol's overlapping spans merge. A row with no open day a member is
// left out with a warning added to `warnings` ("LINE: ...").
std::vector<store::MemberSpan> spans_of_announcements(const std::string& index_symbol,
                                                      std::span<const AnnouncedSpan> rows,
                                                      const OpenDays& days,
                                                      std::vector<std::string>& warnings);

// Return `text`, qlib's `SH600000` (any case) or D1's `600000.SH`, as a canonical symbol, or
// INVALID_SYMBOL.
Result<std::string> parse_member_symbol(std::string_view text);

} // namespace ashare::members
