// Reading the tables Tushare answers into what the store keeps (D18, D19): `daily` rows through
// the importer's own reading of a Tushare daily file (units, D16's checks), `adj_factor`,
// `suspend_d`, `stock_basic` and `trade_cal`.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/fetch/tushare/wire.hpp"
#include "core/import/parsed_file.hpp"
#include "core/store/bar_store.hpp"

#include <map>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

namespace ashare::fetch::tushare {

// A `daily` answer read as the importer reads `ashare import --format tushare` of the same rows.
struct DailyRows {
  import::ParsedFile file;            // the good rows; the bad ones in file.problems
  std::vector<std::string> row_codes; // ts_code of each answered row, in order (for messages)
  std::vector<std::string> row_days;  // its trade_date, as sent

  // Return the ts_code of the row a problem on `line` names (line 2 is the first row).
  std::string code_on_line(std::int64_t line) const;
  // Return the trade_date of that row, when it reads as a date.
  std::optional<domain::Date> day_on_line(std::int64_t line) const;
};

// Read a `daily` table (ts_code, trade_date, open, high, low, close, pre_close, pct_chg, vol,
// amount), taking its cells. An answer without those columns is an INVALID_INPUT error.
Result<DailyRows> read_daily(Table table);

// One row of an `adj_factor` table.
struct AdjFactor {
  std::string symbol;
  domain::Date date;
  double value = 0;
};

// Read an `adj_factor` table (ts_code, trade_date, adj_factor); rows whose code or date does not
// read, or whose factor is not a number within D16's bounds, are left out.
Result<std::vector<AdjFactor>> read_adj_factor_rows(const Table& table);

// Read an `adj_factor` table of one trade_date: ts_code -> adj_factor, as read_adj_factor_rows.
Result<std::unordered_map<std::string, double>> read_adj_factors(const Table& table);

// Read a `suspend_d` table: the (ts_code, trade_date) of each suspension row (suspend_type S).
Result<std::vector<std::pair<std::string, domain::Date>>> read_suspensions(const Table& table);

// Read a `stock_basic` table (ts_code, name, list_date, delist_date, list_status).
Result<std::vector<store::Listing>> read_listings(const Table& table);

// D20: read a `fund_basic` table (ts_code, name, list_date, delist_date, status L, D or I) into
// listings of kind fund; a fund still being issued (I), or a code D20 keeps out (a REIT), is left
// out.
Result<std::vector<store::Listing>> read_fund_listings(const Table& table);

// D20: read an `index_basic` table (ts_code, name, list_date, exp_date) into listings of kind
// index (status L, or D once exp_date is set); a code that is no D1 symbol (Tushare's `.CSI`) is
// left out.
Result<std::vector<store::Listing>> read_index_listings(const Table& table);

// D20: an `index_weight` table (index_code, con_code, trade_date, weight in percent) read into
// snapshots by day, each member canonical and by symbol; a row whose code is no D1 symbol, or
// one D20 keeps out, or whose day or weight does not read, is left out. The snapshots are filed
// by the caller under the index it asked for (000300.SH, asked as 399300.SZ).
Result<std::map<domain::Date, std::vector<store::MemberWeight>>> read_index_weight(const Table& table);

// Read a `bse_mapping` table (o_code, n_code: the Beijing exchange's old and new codes, D19) into
// aliases; a row whose codes are no Beijing symbols, or whose new code is no 920xxx, is an
// INVALID_INPUT error.
Result<std::vector<store::CodeAlias>> read_bse_mapping(const Table& table);

// Read a `trade_cal` table (cal_date, is_open) into its open days, ascending; `span` is the first
// and last day it answers for.
struct CalendarAnswer {
  std::vector<domain::Date> open_days;
  std::optional<std::pair<domain::Date, domain::Date>> span;
};
Result<CalendarAnswer> read_calendar(const Table& table);

} // namespace ashare::fetch::tushare
