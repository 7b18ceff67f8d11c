// Date-range arithmetic for the remote-mode cache: which calendar days of a symbol the cache holds
// every remote bar of, what a query still has to fetch, and whether the whole history is there.
#pragma once

#include "core/domain/date.hpp"

#include <span>
#include <vector>

namespace ashare::remote {

// An inclusive range of calendar days.
struct DateRange {
  domain::Date first;
  domain::Date last;

  friend bool operator==(const DateRange&, const DateRange&) = default;
};

// Return `ranges` sorted, with overlapping or adjacent ranges joined (e.g. [1, 3] and [4, 6] become
// [1, 6]); empty ranges (first > last) are dropped.
std::vector<DateRange> merge_ranges(std::vector<DateRange> ranges);

// Return the parts of [`first`, `last`] that `covered` (merged, as merge_ranges returns) leaves
// out, in date order; empty when everything is covered or first > last.
std::vector<DateRange>
missing_ranges(std::span<const DateRange> covered, domain::Date first, domain::Date last);

// Return whether `covered` (merged) holds a range that starts on or before
// domain::k_first_session, that is, the symbol's history from its first bar on.
bool reaches_first_session(std::span<const DateRange> covered);

} // namespace ashare::remote
