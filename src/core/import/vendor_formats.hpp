// The vendor formats people already have, each read into a ParsedFile (or streamed to a sink) of raw bars in shares and
// CNY (D12). Factors are not set here (see import/factors.hpp): rows keep the vendor's pre_close
// so that the factor can be derived from the pre_close chain.
#pragma once

#include "core/domain/kind.hpp"
#include "core/error.hpp"
#include "core/import/parsed_file.hpp"
#include "core/import/vendor_csv.hpp"

#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <variant>
#include <string>

namespace ashare::import {

// Tushare `daily`: vol in lots of 100 shares, amount in thousand CNY.
inline constexpr VendorUnits k_tushare_units{2, 3};
// AkShare `stock_zh_a_hist`: 成交量 in lots, 成交额 in CNY.
inline constexpr VendorUnits k_akshare_units{2, 0};
// baostock `query_history_k_data_plus`: shares and CNY.
inline constexpr VendorUnits k_baostock_units{0, 0};

// Parse a Tushare `daily` CSV (ts_code, trade_date YYYYMMDD, open, high, low, close, pre_close,
// pct_chg, vol, amount; other columns ignored). pct_chg becomes change_pct.
Result<ParsedFile> parse_tushare_daily(std::istream& in, RowSink sink = {});

// Parse the records of a Tushare `daily` answer (D18) as parse_tushare_daily parses a file's:
// line numbers are the records' own (the header 1, the first row 2).
Result<ParsedFile> parse_tushare_daily_records(const CsvRecord& header, std::span<const CsvRecord> records);

// Parse an AkShare `stock_zh_a_hist` CSV (日期, 开盘, 收盘, 最高, 最低, 成交量, 成交额 and
// optionally 涨跌幅) for `symbol`, which the file does not name with its exchange.
Result<ParsedFile> parse_akshare_hist(std::istream& in,
                                      const std::string& symbol,
                                      RowSink sink = {});

// Parse a baostock `query_history_k_data_plus` CSV (date, code like sh.600000, open, high, low,
// close, preclose, volume, amount and optionally adjustflag, tradestatus, pctChg). Rows with
// tradestatus 0 (suspended) are skipped and counted. A row with adjustflag 1 or 2 (adjusted
// prices) refuses the file unless `adjusted_input`.
Result<ParsedFile> parse_baostock_k(std::istream& in, bool adjusted_input, RowSink sink = {});

// One record of a TDX `.day` file as stored.
struct TdxRecord {
  std::uint32_t date = 0; // YYYYMMDD
  std::uint32_t open = 0, high = 0, low = 0, close = 0; // in ticks: 0.01 CNY, a fund's 0.001
  float amount = 0;         // CNY
  std::uint32_t volume = 0; // shares, an index's lots
};

// Decode the 32 little-endian bytes at `bytes`.
TdxRecord decode_tdx_record(const unsigned char* bytes);

// A `.day` file's units, which depend on the kind of its symbol (D20).
struct TdxDayUnits {
  int price_exponent = -2; // price = ticks * 10^price_exponent
  int volume_power = 0;    // shares = volume * 10^volume_power
};

// Return the units of a `.day` file of `kind`: a stock's prices in 0.01 and volume in shares, an
// index's volume in lots, a fund's prices in 0.001 (D20).
TdxDayUnits tdx_day_units(domain::Kind kind);

// Return `record` as a vendor row of `symbol` (prices: ticks scaled by `units` exactly; amount:
// the float's exact value from 2^24 on, where floats are whole, else its shortest decimal text;
// the volume left in the file's unit), or the problem of record `number` when its date is not a
// valid YYYYMMDD or its amount not finite.
std::variant<VendorRow, RowProblem> tdx_vendor_row(const TdxRecord& record,
                                                   const std::string& symbol,
                                                   std::int64_t number,
                                                   TdxDayUnits units = {});

// Parse a TDX (通达信) `.day` file for `symbol`: 32-byte little-endian records of date YYYYMMDD,
// open, high, low, close in ticks, amount as float32 CNY, volume, and a word that an index's
// records fill with u16 up_count, u16 down_count (not stored). The units follow the symbol's kind
// by its code (tdx_day_units); a code D20 keeps out refuses the file. Problems name the record
// number (1-based) as their line.
Result<ParsedFile> parse_tdx_day(std::istream& in,
                                 const std::string& symbol,
                                 RowSink sink = {});

// Parse a TDX (通达信) text export (数据导出, D20) for `symbol`: a title line naming code, name and
// adjustment ("510300 沪深300ETF 日线 不复权"), the header 日期 开盘 最高 最低 收盘 成交量 成交额 (tab
// and space padded), rows YYYY/MM/DD,open,high,low,close,volume,amount and a last line
// 数据来源:通达信; GBK (or UTF-8), CRLF or LF. Volume in shares, an index's in lots; amount CNY.
// A title saying 前复权 or 后复权, or naming another code than `symbol`'s, refuses the file, as does
// a code D20 keeps out.
Result<ParsedFile> parse_tdx_text(std::istream& in, const std::string& symbol, RowSink sink = {});

} // namespace ashare::import
