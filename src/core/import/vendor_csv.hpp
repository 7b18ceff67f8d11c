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
// that is not a whole number of shares, or a bar check_bar refuses (with `latest`), is a problem
// on `line`. The factor is left at 1.
std::variant<ParsedRow, RowProblem>
convert_vendor_row(const VendorRow& row,
                   VendorUnits units,
                   std::int64_t line,
                   domain::Date latest);

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

// Parse `records` (after `header`) as `format` would parse them read from a file: rows that
// reach ashare as cells rather than bytes (a source's reply, D18), with the same checks and units.
Result<ParsedFile> parse_vendor_records(const CsvRecord& header,
                                        std::span<const CsvRecord> records,
                                        const VendorCsvFormat& format);

// Map each of `columns` to its field in `header` (names trimmed). A column named twice, or a
// required one missing, is an INVALID_INPUT error "line: header: ..." naming `description`.
Result<std::vector<std::optional<std::size_t>>> find_columns(const CsvRecord& header,
                                                             std::span<const ColumnName> columns,
                                                             std::string_view description);

// Return the problem of a `record` that does not have `expected` fields, or nullopt.
std::optional<RowProblem> field_count_problem(const CsvRecord& record, std::size_t expected);

// Return `text` in double quotes; text longer than 40 bytes shows its first 32 and its length.
std::string quoted(std::string_view text);

// The most significant digits a number of a file may have (D16): more cannot be read exactly.
inline constexpr std::size_t k_max_significant_digits = 40;

// Read the number text `text` of a field as D16 allows: plain decimal or exponent form, at most
// k_max_significant_digits significant digits, and a double that neither overflows nor
// underflows to 0. Return the decimal, or the problem quoting the text.
std::variant<domain::Decimal, std::string> read_decimal_field(std::string_view text);

// Return what read_decimal_field reads, as the nearest double; plain text of at most 40
// characters is read in place (the importers' hot path, issue 11 P3).
std::variant<double, std::string> read_number_field(std::string_view text);

// Return an INVALID_INPUT error reading "`line`: `column`: `message`".
Error file_error(std::int64_t line, std::string_view column, const std::string& message);

// Return the error that refuses a file whose line `line` is longer than k_max_line_bytes (D16).
Error too_long_line_error(std::int64_t line);

// Return the date `text` (YYYY-MM-DD or YYYYMMDD), or nullopt.
std::optional<domain::Date> parse_date_text(std::string_view text);

// Return whether `text` is valid UTF-8.
bool is_utf8(std::string_view text);

} // namespace ashare::import
