// baostock `query_history_k_data_plus` CSV: date,code,open,high,low,close,preclose,volume,amount,
// adjustflag,turn,tradestatus,pctChg,isST. Suspended days are rows with tradestatus 0.
#include "core/domain/symbol.hpp"
#include "core/import/vendor_formats.hpp"

#include <array>

namespace ashare::import {
namespace {
// The vendor's columns in a namespace of their own: the formats' files name theirs alike, and a
// unity build compiles them together.
namespace baostock_k {

enum Column {
  date,
  code,
  open,
  high,
  low,
  close,
  preclose,
  volume,
  amount,
  adjustflag,
  tradestatus,
  pct_chg
};

constexpr std::array<ColumnName, 12> k_columns{{
    {"date"},
    {"code"},
    {"open"},
    {"high"},
    {"low"},
    {"close"},
    {"preclose", false},
    {"volume"},
    {"amount"},
    {"adjustflag", false},
    {"tradestatus", false},
    {"pctChg", false},
}};

} // namespace baostock_k

// Return the canonical symbol of a baostock code such as "sh.600000", or the error.
Result<domain::Symbol> parse_code(std::string_view code) {
  if (code.size() > 3 && code[2] == '.') {
    std::string text(code.substr(3));
    text += '.';
    text += code.substr(0, 2);
    if (auto symbol = domain::parse_symbol(text)) {
      return symbol;
    }
  }
  return make_error(ErrorCode::invalid_input,
                    quoted(code) + " is not a baostock code such as sh.600000");
}

std::string_view adjustment_name(std::string_view flag) {
  return flag == "1" ? "backward-adjusted (hfq)" : "forward-adjusted (qfq)";
}

} // namespace

Result<ParsedFile> parse_baostock_k(std::istream& in, bool adjusted_input, RowSink sink) {
  auto read_row = [adjusted_input](RowFields& fields, VendorRow& row) -> Result<RowOutcome> {
    using namespace baostock_k;
    const auto flag = fields.text(adjustflag);
    if ((flag == "1" || flag == "2") && !adjusted_input) {
      return file_error(fields.line(), "adjustflag",
                        "the file holds " + std::string(adjustment_name(flag))
                            + " prices (adjustflag " + std::string(flag)
                            + "); ashare stores raw prices plus factors: export with adjustflag=3, "
                              "or pass --adjusted-input to store the prices as given");
    }
    auto symbol = parse_code(fields.text(code));
    if (!symbol) {
      fields.fail(code, symbol.error().message);
      return RowOutcome::keep;
    }
    row.symbol = symbol->str();
    row.trade_date = fields.date(date);
    if (fields.text(tradestatus) == "0") {
      return RowOutcome::skip_suspended; // OHLC repeat the last close, volume 0: not a bar
    }
    row.open = fields.decimal(open);
    row.high = fields.decimal(high);
    row.low = fields.decimal(low);
    row.close = fields.decimal(close);
    row.pre_close = fields.optional_decimal(preclose);
    row.change_pct = fields.optional_decimal(pct_chg);
    row.volume = fields.decimal(volume);
    row.turnover = fields.decimal(amount);
    return RowOutcome::keep;
  };
  const VendorCsvFormat format{"a baostock query_history_k_data_plus file", baostock_k::k_columns,
                               k_baostock_units, 0, read_row};
  return parse_vendor_csv(in, format, std::move(sink));
}

} // namespace ashare::import
