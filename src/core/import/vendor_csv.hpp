// What the vendor CSV formats (Tushare, AkShare, baostock) share: finding columns by header name,
// reading a row's fields as exact decimals, converting vendor units to shares and CNY in decimal
// (D12), and the loop that turns a file into a ParsedFile. Each format supplies a column table,
// its units and a function that reads one row. The canonical parser shares the message helpers.
#pragma once

#include "core/domain/number.hpp"
#include "core/error.hpp"
#include "core/import/csv_reader.hpp"
#include "core/import/parsed_file.hpp"

#include <functional>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ashare::import {

struct ColumnName {
  std::string_view name; // as in the header, exactly (after trimming spaces)
  bool required = true;
};

// A row as the vendor wrote it, before unit conversion.
struct VendorRow {
  std::string symbol; // canonical
  domain::Date trade_date;
  domain::Decimal open, high, low, close;
  std::optional<domain::Decimal> pre_close;
  std::optional<domain::Decimal> change_pct; // percent units
  domain::Decimal volume;                    // in the vendor's unit
  domain::Decimal turnover;                  // in the vendor's unit
};

// A format's units as powers of ten: shares = volume * 10^volume_power, CNY = turnover *
// 10^turnover_power (Tushare: lots and thousand CNY, so 2 and 3).
struct VendorUnits {
  int volume_power = 0;
  int turnover_power = 0;
};

// Convert `row` to a bar in shares and CNY, scaling the decimal text exactly (D12); a volume
// that is not a whole number of shares is a problem on `line`. The factor is left at 1.
std::variant<ParsedRow, RowProblem>
convert_vendor_row(const VendorRow& row, VendorUnits units, std::int64_t line);

// One record's fields, read by column id (an index into the format's column table). The first
// problem found is kept, naming the column by its header name; later reads return zeros.
class RowFields {
public:
  RowFields(const CsvRecord& record,
            std::span<const ColumnName> columns,
            const std::vector<std::optional<std::size_t>>& index)
      : m_record(record), m_columns(columns), m_index(index) {}

  // Return whether the file has column `column`.
  bool has(int column) const { return m_index[static_cast<std::size_t>(column)].has_value(); }

  // Return the text of `column` ("" when the file lacks it).
  std::string_view text(int column) const;

  // Return `column` as a decimal; a field that is not a number is a problem.
  domain::Decimal decimal(int column);

  // Return `column` as a decimal, or nullopt when the file lacks it or the field is empty.
  std::optional<domain::Decimal> optional_decimal(int column);

  // Return `column` as a date (YYYY-MM-DD or YYYYMMDD); anything else is a problem.
  domain::Date date(int column);

  // Record a problem with `column` unless one was already found.
  void fail(int column, std::string message);

  std::int64_t line() const { return m_record.line; }
  std::optional<RowProblem> problem;

private:
  const CsvRecord& m_record;
  std::span<const ColumnName> m_columns;
  const std::vector<std::optional<std::size_t>>& m_index;
};

enum class RowOutcome { keep, skip_suspended };

struct VendorCsvFormat {
  std::string_view description; // e.g. "a Tushare daily file", for messages
  std::span<const ColumnName> columns;
  VendorUnits units;
  // Lines before the header (a banner such as xbx's first line); usually 0.
  int lines_before_header = 0;
  // Read one record into `row`, or return an Error that refuses the whole file (e.g. adjusted
  // prices). Problems with single fields go to `fields.fail`.
  std::function<Result<RowOutcome>(RowFields& fields, VendorRow& row)> read_row;
};

// Parse `in` as `format`, handing the rows to `sink` when given. File-level failures (not UTF-8, missing column, a refusal of read_row)
// are INVALID_INPUT errors reading "line: column: what is wrong".
Result<ParsedFile> parse_vendor_csv(std::istream& in,
                                    const VendorCsvFormat& format,
                                    RowSink sink = {});

// Map each of `columns` to its field in `header` (names trimmed). A column named twice, or a
// required one missing, is an INVALID_INPUT error "line: header: ..." naming `description`.
Result<std::vector<std::optional<std::size_t>>> find_columns(const CsvRecord& header,
                                                             std::span<const ColumnName> columns,
                                                             std::string_view description);

// Return the problem of a `record` that does not have `expected` fields, or nullopt.
std::optional<RowProblem> field_count_problem(const CsvRecord& record, std::size_t expected);

// Return `text` in double quotes.
std::string quoted(std::string_view text);

// Return an INVALID_INPUT error reading "`line`: `column`: `message`".
Error file_error(std::int64_t line, std::string_view column, const std::string& message);

// Return the date `text` (YYYY-MM-DD or YYYYMMDD), or nullopt.
std::optional<domain::Date> parse_date_text(std::string_view text);

// Return whether `text` is valid UTF-8.
bool is_utf8(std::string_view text);

} // namespace ashare::import
