// The interval statistics of `include=summary` (D8), over the bars as returned.
#pragma once

#include "core/domain/bar.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace ashare::query {

struct Summary {
  domain::Date from; // echo of the window
  domain::Date to;
  std::int64_t bars_count = 0;
  std::optional<double> return_pct; // nullopt (null on the wire) when there are no bars
  std::optional<double> open_first;
  std::optional<double> close_last;
};

// Return the summary of `bars` in the order returned (after sort and limit, prices as returned):
// open_first is the first bar's open, close_last the last bar's close, and return_pct is
// round4((close_last / open_first - 1) * 100).
Summary summarize(std::span<const domain::Bar> bars, domain::Date from, domain::Date to);

} // namespace ashare::query
