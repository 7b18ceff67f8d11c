// The canonical CSV format: a header row naming symbol, trade_date, open, high, low, close, volume
// (shares) and turnover (CNY), and optionally change_pct (percent units) and factor, in any order.
// Other columns are ignored. Dates are YYYY-MM-DD (YYYYMMDD is accepted too).
#pragma once

#include "core/error.hpp"
#include "core/import/parsed_file.hpp"

#include <istream>
#include <string>

namespace ashare::import {

// Parse canonical CSV from `in`. A problem with the file as a whole (no header, a required column
// missing, a column named twice, a row with the wrong number of fields is a row problem) is an
// INVALID_INPUT error whose message reads "line: column: what is wrong" without the file name.
Result<ParsedFile> parse_canonical_csv(std::istream& in, RowSink sink = {});

} // namespace ashare::import
