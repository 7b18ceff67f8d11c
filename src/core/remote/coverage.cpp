#include "core/remote/coverage.hpp"

#include <algorithm>

namespace ashare::remote {

std::vector<DateRange> merge_ranges(std::vector<DateRange> ranges) {
  std::erase_if(ranges, [](const DateRange& range) { return range.first > range.last; });
  std::sort(ranges.begin(), ranges.end(),
            [](const DateRange& a, const DateRange& b) { return a.first < b.first; });
  std::vector<DateRange> merged;
  for (const auto& range : ranges) {
    // Adjacent calendar days join too: nothing can hide between day d and day d + 1.
    if (!merged.empty() && range.first <= merged.back().last.plus_days(1)) {
      merged.back().last = std::max(merged.back().last, range.last);
    } else {
      merged.push_back(range);
    }
  }
  return merged;
}

std::vector<DateRange>
missing_ranges(std::span<const DateRange> covered, domain::Date first, domain::Date last) {
  std::vector<DateRange> missing;
  domain::Date next = first; // the first day not yet accounted for
  for (const auto& range : covered) {
    if (next > last) {
      break;
    }
    if (range.last < next) {
      continue;
    }
    if (range.first > next) {
      missing.push_back(DateRange{next, std::min(last, range.first.plus_days(-1))});
    }
    next = std::max(next, range.last.plus_days(1));
  }
  if (next <= last) {
    missing.push_back(DateRange{next, last});
  }
  return missing;
}

bool reaches_first_session(std::span<const DateRange> covered) {
  return !covered.empty() && covered.front().first <= domain::k_first_session;
}

} // namespace ashare::remote
