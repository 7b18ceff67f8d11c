// D19: a Tushare `trade_cal` CSV as a calendar: `cal_date` (YYYYMMDD) and `is_open` (1/0), with
// optional `exchange` (SSE only) and `pretrade_date`, with or without a leading unnamed index
// column (pandas' to_csv); also the pre-Pro layout `calendarDate` (YYYY-MM-DD), `isOpen`.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::import {

// What a trade_cal file says: every day of [first, last] is open when in `open_days`, closed
// otherwise. A file listing open days only (is_open always 1) thus closes the others (D19).
struct CalendarFile {
  domain::Date first;
  domain::Date last;
  std::vector<domain::Date> open_days; // ascending
  std::int64_t rows = 0;
};

// Return whether the header row `fields` names a trade_cal file's date and is_open columns.
bool is_trade_cal_header(const std::vector<std::string>& fields);

// Parse the trade_cal CSV `in`, read from `path` (for messages). An INVALID_INPUT error in the
// importers' words ("PATH:LINE: COLUMN: what is wrong") for a file without the columns, a bad date
// or is_open, another exchange than SSE, one day given twice, or no rows.
Result<CalendarFile> parse_trade_cal_csv(std::istream& in, std::string_view path);

} // namespace ashare::import
