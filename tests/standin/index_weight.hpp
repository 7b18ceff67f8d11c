// The stand-in's Tushare `index_weight` (D20, issue 44): an index's monthly snapshots made from
// announcement spans (`symbol,name,opt-in,opt-out` as `import --format members` reads them: opt-in
// the first day a member, opt-out the first day no longer one, empty while a member). Real
// Tushare dates a snapshot on a month's last open day or so and lags the announcements; the
// stand-in dates each on its calendar's last open day of the month, naming the members in force
// that day. The weights are made up: 100 / the snapshot's size, to 4 decimals.
#pragma once

#include "market.hpp"

#include <filesystem>
#include <string>

namespace standin {

extern const std::vector<Column> k_index_weight_columns; // index_code, con_code, trade_date, weight

// Return the snapshots of `index_code` (by trade_date, each by con_code) that the spans in `path`
// give on each month's last open day of `trade_cal` (its rows ascending). Throws
// std::runtime_error naming the file when it cannot be read or lacks a column.
RowsByDay monthly_snapshots(const std::filesystem::path& path,
                            const std::string& index_code,
                            const std::vector<Row>& trade_cal);

} // namespace standin
