// Tushare `daily` CSV: ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount.
#include "core/domain/symbol.hpp"
#include "core/import/vendor_formats.hpp"

#include <array>

namespace ashare::import {
namespace {
// The vendor's columns in a namespace of their own: the formats' files name theirs alike, and a
// unity build compiles them together.
namespace tushare_daily {

enum Column { ts_code, trade_date, open, high, low, close, pre_close, pct_chg, vol, amount };

constexpr std::array<ColumnName, 10> k_columns{{
    {"ts_code"},
    {"trade_date"},
    {"open"},
    {"high"},
    {"low"},
    {"close"},
    {"pre_close", false},
    {"pct_chg", false},
    {"vol"},
    {"amount"},
}};

Result<RowOutcome> read_row(RowFields& fields, VendorRow& row) {
  auto symbol = domain::parse_symbol(fields.text(ts_code));
  if (!symbol) {
    fields.fail(ts_code, symbol.error().message);
    return RowOutcome::keep;
  }
  row.symbol = symbol->str();
  row.trade_date = fields.date(trade_date);
  row.open = fields.decimal(open);
  row.high = fields.decimal(high);
  row.low = fields.decimal(low);
  row.close = fields.decimal(close);
  row.pre_close = fields.optional_decimal(pre_close);
  row.change_pct = fields.optional_decimal(pct_chg);
  row.volume = fields.decimal(vol);
  row.turnover = fields.decimal(amount);
  return RowOutcome::keep;
}

} // namespace tushare_daily
} // namespace

Result<ParsedFile> parse_tushare_daily(std::istream& in, RowSink sink) {
  const VendorCsvFormat format{"a Tushare daily file", tushare_daily::k_columns, k_tushare_units, 0,
                               tushare_daily::read_row};
  return parse_vendor_csv(in, format, std::move(sink));
}

Result<ParsedFile> parse_tushare_daily_records(const CsvRecord& header, std::span<const CsvRecord> records) {
  const VendorCsvFormat format{"a Tushare daily answer", tushare_daily::k_columns, k_tushare_units,
                               0, tushare_daily::read_row};
  return parse_vendor_records(header, records, format);
}

} // namespace ashare::import
