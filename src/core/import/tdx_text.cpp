// TDX (通达信) text exports (数据导出, D20), as in zsh-a/quant's SH#510300.txt:
//   510300 沪深300ETF 日线 不复权
//         日期	    开盘	    最高	    最低	    收盘	    成交量	    成交额
//   2012/05/28,2.551,2.607,2.544,2.604,1277518769,3285755392.00
//   ...
//   数据来源:通达信
// in GBK with CRLF line ends. Prices as written; volume in shares, an index's in lots; amount CNY.
#include "core/domain/kind.hpp"
#include "core/import/gbk_text.hpp"
#include "core/import/vendor_formats.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ashare::import {
namespace {
// The vendor's columns in a namespace of their own: the formats' files name theirs alike, and a
// unity build compiles them together.
namespace tdx_text {

enum Column { date, open, high, low, close, volume, amount };

constexpr std::array<ColumnName, 7> k_columns{{
    {"日期"},
    {"开盘"},
    {"最高"},
    {"最低"},
    {"收盘"},
    {"成交量"},
    {"成交额"},
}};

// The last line: "数据来源:通达信".
constexpr std::string_view k_footer = "数据来源";

// The adjusted exports a title may name: ashare keeps raw prices and factors (D8).
struct Adjusted {
  std::string_view word;
  std::string_view meaning;
};

constexpr std::array<Adjusted, 2> k_adjusted{{
    {"前复权", "forward-adjusted"},
    {"后复权", "backward-adjusted"},
}};

// Return the text of `record`'s line as UTF-8 (its fields joined again), or nullopt when it is
// neither UTF-8 nor GBK.
std::optional<std::string> line_text(const CsvRecord& record) {
  std::string joined;
  for (std::size_t i = 0; i < record.fields.size(); ++i) {
    joined += i == 0 ? "" : ",";
    joined += record.fields[i];
  }
  return utf8_from_utf8_or_gbk(joined);
}

// Return the words of `text`, split at spaces and tabs.
std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while ((start = text.find_first_not_of(" \t\r", start)) != text.npos) {
    const auto end = std::min(text.find_first_of(" \t\r", start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end;
  }
  return out;
}

// Check the title line `record` ("510300 沪深300ETF 日线 不复权") of an export read as `symbol`:
// an adjusted export, or one of another code, refuses the file.
Status check_title(const CsvRecord& record, const std::string& symbol) {
  const auto title = line_text(record);
  if (!title) {
    return file_error(record.line, "title", "the title is neither GBK nor UTF-8: not a TDX export");
  }
  for (const auto& adjusted : k_adjusted) {
    if (title->find(adjusted.word) != std::string::npos) {
      return file_error(record.line, "title",
                        "the export holds " + std::string(adjusted.word) + " ("
                          + std::string(adjusted.meaning)
                          + ") prices; ashare keeps raw prices and factors (D8): export the bars "
                            "again from TDX choosing 不复权");
    }
  }
  const auto title_words = words(*title);
  const auto code = title_words.empty() ? std::string_view() : title_words.front();
  if (code.size() == 6 && code.find_first_not_of("0123456789") == code.npos
      && code != std::string_view(symbol).substr(0, 6)) {
    return file_error(record.line, "title",
                      "the export is of " + std::string(code) + ", not of " + symbol
                        + ": name the file like SH#" + std::string(code)
                        + ".txt or pass --symbol with its exchange");
  }
  return Ok{};
}

// Check the column header `record`: the seven columns of a TDX export of daily bars, in order.
Status check_header(const CsvRecord& record) {
  const auto header = line_text(record);
  const auto names = header ? words(*header) : std::vector<std::string_view>{};
  bool same = names.size() == k_columns.size();
  for (std::size_t i = 0; same && i < names.size(); ++i) {
    same = names[i] == k_columns[i].name;
  }
  if (!same) {
    return file_error(record.line, "header",
                      "expected the columns 日期 开盘 最高 最低 收盘 成交量 成交额 of a TDX export of "
                      "daily bars"
                        + (header ? ", found " + import::quoted(*header) : std::string()));
  }
  return Ok{};
}

bool is_footer(const CsvRecord& record) {
  const auto text = record.fields.size() == 1 ? line_text(record) : std::nullopt;
  return text && words(*text).size() == 1 && text->find(k_footer) != std::string::npos;
}

// Return the date `text` written YYYY/MM/DD, or nullopt.
std::optional<domain::Date> slash_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '/' || text[7] != '/') {
    return std::nullopt;
  }
  std::string iso(text);
  iso[4] = iso[7] = '-';
  return parse_date_text(iso);
}

// Read the fields of `record` into `row` of `symbol`; a problem goes to `fields`.
void read_row(RowFields& fields, const std::string& symbol, VendorRow& row) {
  row.symbol = symbol;
  if (const auto day = slash_date(fields.text(date))) {
    row.trade_date = *day;
  } else {
    fields.fail(date, import::quoted(fields.text(date)) + " is not a date YYYY/MM/DD");
  }
  row.open = fields.decimal(open);
  row.high = fields.decimal(high);
  row.low = fields.decimal(low);
  row.close = fields.decimal(close);
  row.volume = fields.decimal(volume);
  row.turnover = fields.decimal(amount);
}

// Read the rows after the header from `reader` into `file`, up to the footer, in `units`.
Status read_rows(CsvReader& reader, const std::string& symbol, VendorUnits units, ParsedFile& file) {
  const std::vector<std::optional<std::size_t>> index{0, 1, 2, 3, 4, 5, 6};
  const auto latest = domain::today_utc8();
  CsvRecord record;
  while (reader.next(record) && !is_footer(record)) {
    if (auto problem = field_count_problem(record, k_columns.size())) {
      file.problems.push_back(std::move(*problem));
      continue;
    }
    RowFields fields(record, k_columns, index);
    VendorRow row;
    read_row(fields, symbol, row);
    if (fields.problem) {
      file.problems.push_back(std::move(*fields.problem));
      continue;
    }
    auto converted = convert_vendor_row(row, units, record.line, latest);
    if (auto* problem = std::get_if<RowProblem>(&converted)) {
      file.problems.push_back(std::move(*problem));
    } else {
      file.add_row(std::get<ParsedRow>(std::move(converted)));
    }
  }
  if (reader.too_long_line() != 0) {
    return too_long_line_error(reader.too_long_line());
  }
  return Ok{};
}

} // namespace tdx_text
} // namespace

Result<ParsedFile> parse_tdx_text(std::istream& in, const std::string& symbol, RowSink sink) {
  const auto kind = domain::kind_of_code(symbol);
  if (!kind) {
    return file_error(1, "symbol", kind.error().message);
  }
  CsvReader reader(in);
  CsvRecord title;
  CsvRecord header;
  if (!reader.next(title) || !reader.next(header)) {
    if (reader.too_long_line() != 0) {
      return too_long_line_error(reader.too_long_line());
    }
    return file_error(1, "title", "the file ends before its header: not a TDX export");
  }
  if (auto status = tdx_text::check_title(title, symbol); !status) {
    return status.error();
  }
  if (auto status = tdx_text::check_header(header); !status) {
    return status.error();
  }
  ParsedFile file;
  file.sink = std::move(sink);
  file.has_factor = false;
  file.has_change_pct = false;
  // D20: volume in shares, an index's in lots (not recorded, taken as the .day file's); amount CNY.
  const VendorUnits units{*kind == domain::Kind::index ? 2 : 0, 0};
  if (auto status = tdx_text::read_rows(reader, symbol, units, file); !status) {
    return status.error();
  }
  return file;
}

} // namespace ashare::import
