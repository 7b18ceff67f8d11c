// The stand-in Tushare server's market (issue 32): the tables it answers from, as CSV text.
// Numbers stay the text they were read or generated as, so a reply can write them verbatim and a
// client reads exactly the CSV's values. Loaded from a data directory (tests/data/tushare_standin)
// or generated for a benchmark. Product-independent: it links no project library.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace standin {

// A table column: its Tushare name and whether the wire carries it as a JSON string (else a number
// written as the cell's text; an empty cell is null).
struct Column {
  std::string name;
  bool is_text = false;
};

// A row's cells in its table's column order.
using Row = std::vector<std::string>;

// The columns of each table, in the order the rows hold them.
extern const std::vector<Column> k_daily_columns;       // ts_code, trade_date, open .. amount
extern const std::vector<Column> k_adj_factor_columns;  // ts_code, trade_date, adj_factor
extern const std::vector<Column> k_trade_cal_columns;   // exchange, cal_date, is_open, pretrade_date
extern const std::vector<Column> k_stock_basic_columns; // ts_code .. delist_date
extern const std::vector<Column> k_suspend_d_columns;   // ts_code, trade_date, suspend_timing, suspend_type
extern const std::vector<Column> k_bse_mapping_columns; // name, o_code, n_code, list_date
extern const std::vector<Column> k_fund_basic_columns;  // ts_code, name, .., list_date, delist_date, status, market
extern const std::vector<Column> k_index_basic_columns; // ts_code, name, .., list_date, exp_date

// Rows grouped by trade_date (YYYYMMDD), each day's rows sorted by ts_code (column 0).
using RowsByDay = std::map<std::string, std::vector<Row>>;

struct Market {
  RowsByDay daily;
  RowsByDay adj_factor;
  std::vector<Row> trade_cal;   // ascending cal_date, every calendar day
  std::vector<Row> stock_basic; // sorted by ts_code
  std::vector<Row> suspend_d;   // sorted by trade_date, then ts_code
  std::vector<Row> bse_mapping; // as the file lists them
  // D20, each when its file is there: fund_daily and index_daily in `daily`'s columns, fund_adj in
  // adj_factor's, fund_basic and index_basic sorted by ts_code.
  RowsByDay fund_daily;
  RowsByDay fund_adj;
  RowsByDay index_daily;
  std::vector<Row> fund_basic;
  std::vector<Row> index_basic;
  // D20: index_weight's snapshots by index_code (index_weight.hpp), from index_weight/CODE.csv.
  std::map<std::string, RowsByDay> index_weight;
};

// Load the market from `dir`: daily/*.csv and daily_synthetic.csv (Tushare `daily` columns),
// adj_factor.csv, trade_cal.csv, stock_basic.csv and suspend_d.csv. Columns are found by their
// header names; extra columns (a `note`) are ignored. D20's fund_daily.csv, fund_adj.csv,
// index_daily.csv, fund_basic.csv and index_basic.csv are read when present, and index_weight/CODE.csv
// (announcement spans: index_weight.hpp) as CODE's monthly snapshots. A symbol's daily row on a day suspend_d
// marks `S` is left out. Throws std::runtime_error naming the file on a missing file or column.
Market load_market(const std::filesystem::path& dir);

// What --generate asks for: `symbols` synthetic stocks on every open day of [from, to], and
// (--generate-funds, --generate-indices) `funds` synthetic ETFs and D20's eight default indices.
struct GenerateSpec {
  int symbols = 0;
  int funds = 0;
  bool indices = false;
  std::string from = "20240101"; // YYYYMMDD
  std::string to = "20241231";
  std::uint64_t seed = 1;
};

// Replace `market`'s daily, adj_factor, stock_basic and suspend_d with a deterministic synthetic
// market per `spec` on the open days of `market.trade_cal` (which stays): random-walk prices in
// CNY with 2 decimals and valid OHLC, vol in lots (2 decimals), amount in thousand CNY
// (3 decimals), pre_close the previous close except on a few ex-dates (a 3% cash dividend), and
// adj_factor the chain adj[t] = adj[t-1] * close[t-1] / pre_close[t] rounded to 3 decimals.
void generate_market(Market& market, const GenerateSpec& spec);

// Return `value` written as Tushare writes a float of `places` decimals: rounded half up, trailing
// zeros dropped but at least one decimal ("1708.0", "11.96"). `value` is in units of 10^-places.
std::string format_fixed(std::int64_t value, int places);

} // namespace standin
