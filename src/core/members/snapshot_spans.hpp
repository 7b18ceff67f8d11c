// D20: membership spans derived from an index's snapshots (Tushare `index_weight`, monthly): a
// symbol is a member from the first snapshot naming it until the open day before the first
// snapshot that does not, and stays one while the last snapshot names it.
#pragma once

#include "core/domain/date.hpp"
#include "core/members/open_days.hpp"
#include "core/store/market_record.hpp"

#include <span>
#include <string>
#include <vector>

namespace ashare::members {

// One snapshot of an index: its day and the members it names.
struct Snapshot {
  domain::Date day;
  std::vector<std::string> symbols;
};

// Return the spans of `index_symbol` that `snapshots` (ascending by day) give, source tushare,
// by symbol then first day. A snapshot dated on a closed day counts from the next open day
// (`days`).
std::vector<store::MemberSpan> spans_of_snapshots(const std::string& index_symbol,
                                                  std::span<const Snapshot> snapshots,
                                                  const OpenDays& days);

// Replace the tushare spans of `index_symbol` in `market` by those its stored snapshots give:
// what a fetch of `index_weight` calls after saving them, inside its change (finish_change then
// bumps the generation).
void refresh_tushare_spans(store::MarketRecord& market, const std::string& index_symbol);

} // namespace ashare::members
