// AkShare `stock_zh_a_hist` CSV with Chinese headers: 日期,开盘,收盘,最高,最低,成交量,成交额,振幅,
// 涨跌幅,涨跌额,换手率 (newer versions add 股票代码, ignored: it carries no exchange).
#include "core/import/vendor_formats.hpp"

#include <array>

namespace ashare::import {
namespace {
// The vendor's columns in a namespace of their own: the formats' files name theirs alike, and a
// unity build compiles them together.
namespace akshare_hist {

enum Column { date, open, close, high, low, volume, turnover, change_pct };

constexpr std::array<ColumnName, 8> k_columns{{
    {"日期"},
    {"开盘"},
    {"收盘"},
    {"最高"},
    {"最低"},
    {"成交量"},
    {"成交额"},
    {"涨跌幅", false},
}};

} // namespace akshare_hist
} // namespace

Result<ParsedFile> parse_akshare_hist(std::istream& in, const std::string& symbol, RowSink sink) {
  auto read_row = [&symbol](RowFields& fields, VendorRow& row) -> Result<RowOutcome> {
    using namespace akshare_hist;
    row.symbol = symbol;
    row.trade_date = fields.date(date);
    row.open = fields.decimal(open);
    row.high = fields.decimal(high);
    row.low = fields.decimal(low);
    row.close = fields.decimal(close);
    row.change_pct = fields.optional_decimal(change_pct);
    row.volume = fields.decimal(volume);
    row.turnover = fields.decimal(turnover);
    return RowOutcome::keep;
  };
  const VendorCsvFormat format{"an AkShare stock_zh_a_hist file", akshare_hist::k_columns,
                               k_akshare_units, 0, read_row};
  return parse_vendor_csv(in, format, std::move(sink));
}

} // namespace ashare::import
