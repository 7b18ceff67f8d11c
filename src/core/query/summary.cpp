#include "core/query/summary.hpp"

#include "core/query/adjustment.hpp"

namespace ashare::query {

Summary summarize(std::span<const domain::Bar> bars, domain::Date from, domain::Date to) {
  Summary summary{from, to, static_cast<std::int64_t>(bars.size()), {}, {}, {}};
  if (bars.empty()) {
    return summary;
  }
  summary.open_first = bars.front().open;
  summary.close_last = bars.back().close;
  summary.return_pct = round4((bars.back().close / bars.front().open - 1) * 100);
  return summary;
}

} // namespace ashare::query
