#include "core/import/vendor_csv.hpp"

#include "core/domain/date.hpp"

#include <cmath>

namespace ashare::import {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::string column_list(std::span<const ColumnName> columns) {
  std::string out;
  for (const auto& column : columns) {
    if (column.required) {
      out += out.empty() ? "" : ", ";
      out += column.name;
    }
  }
  return out;
}

} // namespace

Result<std::vector<std::optional<std::size_t>>> find_columns(const CsvRecord& header,
                                                             std::span<const ColumnName> columns,
                                                             std::string_view description) {
  std::vector<std::optional<std::size_t>> index(columns.size());
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const auto name = trimmed(header.fields[i]);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (columns[c].name != name) {
        continue;
      }
      if (index[c]) {
        return file_error(header.line, "header", "column " + quoted(name) + " is named twice");
      }
      index[c] = i;
    }
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].required && !index[c]) {
      return file_error(header.line, "header",
                        "missing column " + quoted(columns[c].name) + " ("
                            + std::string(description) + " has " + column_list(columns) + ")");
    }
  }
  return index;
}

std::optional<RowProblem> field_count_problem(const CsvRecord& record, std::size_t expected) {
  if (record.fields.size() == expected) {
    return std::nullopt;
  }
  return RowProblem{record.line, "row",
                    "has " + std::to_string(record.fields.size()) + " fields, the header has "
                        + std::to_string(expected)};
}

std::string quoted(std::string_view text) {
  // Built by appending: GCC 12 -O2 reports a bogus -Wrestrict for `"\"" + std::string(..)`.
  std::string out;
  out += '"';
  if (text.size() <= 40) {
    out += text;
    out += '"';
    return out;
  }
  // A field of 64 KiB would bury the message: its start says which value it is.
  out += text.substr(0, 32);
  out += "...\" (";
  out += std::to_string(text.size());
  out += " characters)";
  return out;
}

std::variant<domain::Decimal, std::string> read_decimal_field(std::string_view text) {
  auto value = domain::parse_decimal(text);
  if (!value) {
    return quoted(text) + " is not a number";
  }
  if (value->digits.size() > k_max_significant_digits) {
    return quoted(text) + " has more than 40 significant digits: too long to read exactly";
  }
  // Within 10^-300 to 10^300 a value is a normal double without converting it; beyond, ask
  // to_double whether it overflows to inf or underflows to 0.
  const long long magnitude = static_cast<long long>(value->digits.size()) + value->exponent;
  if (!domain::is_zero(*value) && (magnitude > 300 || magnitude < -300)) {
    const double nearest = domain::to_double(*value);
    if (!std::isfinite(nearest) || nearest == 0) {
      return quoted(text) + " is out of range";
    }
  }
  return *std::move(value);
}

std::variant<double, std::string> read_number_field(std::string_view text) {
  if (text.size() <= k_max_significant_digits) {
    // At most 40 characters hold at most 40 digits; only an exponent can leave the range.
    const auto value = domain::parse_double(text);
    if (value && std::isfinite(*value) && *value != 0) {
      return *value;
    }
  }
  auto decimal = read_decimal_field(text);
  if (auto* problem = std::get_if<std::string>(&decimal)) {
    return std::move(*problem);
  }
  return domain::to_double(std::get<domain::Decimal>(decimal));
}

Error file_error(std::int64_t line, std::string_view column, const std::string& message) {
  std::string text = std::to_string(line);
  text += ": ";
  text += column;
  text += ": ";
  text += message;
  return make_error(ErrorCode::invalid_input, std::move(text));
}

Error too_long_line_error(std::int64_t line) {
  return file_error(line, "row",
                    "the line is longer than 64 KiB (65536 bytes): no file of daily bars has one");
}

std::optional<domain::Date> parse_date_text(std::string_view text) {
  if (auto iso = domain::parse_iso_date(text, "trade_date")) {
    return *iso;
  }
  if (text.size() == 8 && text.find_first_not_of("0123456789") == text.npos) {
    return domain::Date::from_yyyymmdd(std::stoll(std::string(text)));
  }
  return std::nullopt;
}

bool is_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const int length = byte < 0x80           ? 1
                       : (byte >> 5) == 0x6  ? 2
                       : (byte >> 4) == 0xe  ? 3
                       : (byte >> 3) == 0x1e ? 4
                                             : 0;
    if (length == 0 || i + static_cast<std::size_t>(length) > text.size()) {
      return false;
    }
    for (int k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]) >> 6) != 0x2) {
        return false;
      }
    }
    i += static_cast<std::size_t>(length);
  }
  return true;
}

std::string_view RowFields::text(int column) const {
  const auto& position = m_index[static_cast<std::size_t>(column)];
  return position ? trimmed(m_record.fields[*position]) : std::string_view();
}

domain::Decimal RowFields::decimal(int column) {
  if (problem) {
    return {};
  }
  auto value = read_decimal_field(text(column));
  if (auto* message = std::get_if<std::string>(&value)) {
    fail(column, std::move(*message));
    return {};
  }
  return std::get<domain::Decimal>(std::move(value));
}

std::optional<domain::Decimal> RowFields::optional_decimal(int column) {
  if (!has(column) || text(column).empty()) {
    return std::nullopt;
  }
  return decimal(column);
}

domain::Date RowFields::date(int column) {
  if (problem) {
    return {};
  }
  const auto value = parse_date_text(text(column));
  if (!value) {
    fail(column, quoted(text(column)) + " is not a date YYYY-MM-DD or YYYYMMDD");
    return {};
  }
  return *value;
}

void RowFields::fail(int column, std::string message) {
  if (!problem) {
    problem =
        RowProblem{m_record.line, std::string(m_columns[static_cast<std::size_t>(column)].name),
                   std::move(message)};
  }
}

std::variant<ParsedRow, RowProblem>
convert_vendor_row(const VendorRow& row,
                   VendorUnits units,
                   std::int64_t line,
                   domain::Date latest) {
  ParsedRow parsed;
  parsed.line = line;
  parsed.symbol = row.symbol;
  auto& bar = parsed.bar;
  bar.trade_date = row.trade_date;
  bar.open = domain::to_double(row.open);
  bar.high = domain::to_double(row.high);
  bar.low = domain::to_double(row.low);
  bar.close = domain::to_double(row.close);
  // D12: scale the decimal text, never a parsed double ("39354.45" lots is 3935445 shares).
  const auto shares = domain::to_int64(domain::scale_decimal(row.volume, units.volume_power));
  if (!shares) {
    return RowProblem{line, "volume",
                      import::quoted(domain::format_number(domain::to_double(row.volume)))
                          + " is not a whole number of shares after conversion"};
  }
  bar.volume = *shares;
  bar.turnover = domain::to_double(domain::scale_decimal(row.turnover, units.turnover_power));
  bar.change_pct = row.change_pct ? domain::to_double(*row.change_pct) : 0.0;
  parsed.has_change_pct = row.change_pct.has_value();
  if (row.pre_close) {
    parsed.pre_close = domain::to_double(*row.pre_close);
  }
  if (auto problem = check_bar(bar, line, latest); !problem.column.empty()) {
    return problem;
  }
  return parsed;
}

namespace {

using ColumnIndex = std::vector<std::optional<std::size_t>>;

// Read the header of `format` from `reader`, after the lines before it: an error when the input
// ends first, or when the header is not UTF-8.
Result<CsvRecord> read_header(CsvReader& reader, const VendorCsvFormat& format) {
  CsvRecord header;
  for (int skipped = 0; skipped <= format.lines_before_header; ++skipped) {
    if (!reader.next(header)) {
      if (reader.too_long_line() != 0) {
        return too_long_line_error(reader.too_long_line());
      }
      return file_error(1, "header",
                        "the file is empty: expected " + std::string(format.description));
    }
  }
  for (const auto& field : header.fields) {
    if (!is_utf8(field)) {
      return file_error(
          header.line, "header",
          "the header is not UTF-8 (GBK?): save the file as UTF-8 and import it again");
    }
  }
  return header;
}

// Read `record` (of a file whose header has `header_fields` fields, found at `index`) into
// `row` as `format` reads it. Return whether `row` is to be kept: a record with a problem (added
// to `file`) or of a suspended day (counted on `file`) is not. An error refuses the file.
Result<bool> read_record(const CsvRecord& record,
                         const VendorCsvFormat& format,
                         std::size_t header_fields,
                         const ColumnIndex& index,
                         VendorRow& row,
                         ParsedFile& file) {
  if (auto problem = field_count_problem(record, header_fields)) {
    file.problems.push_back(std::move(*problem));
    return false;
  }
  RowFields fields(record, format.columns, index);
  auto outcome = format.read_row(fields, row);
  if (!outcome) {
    return outcome.error();
  }
  if (fields.problem) {
    file.problems.push_back(std::move(*fields.problem));
    return false;
  }
  if (*outcome == RowOutcome::skip_suspended) {
    ++file.suspended_skipped;
    return false;
  }
  return true;
}

// Add `row`, read on `line`, to `file` in shares and CNY, or the problem its conversion finds.
void add_converted(const VendorRow& row,
                   VendorUnits units,
                   std::int64_t line,
                   domain::Date latest,
                   ParsedFile& file) {
  auto converted = convert_vendor_row(row, units, line, latest);
  if (auto* problem = std::get_if<RowProblem>(&converted)) {
    file.problems.push_back(std::move(*problem));
  } else {
    file.add_row(std::get<ParsedRow>(std::move(converted)));
  }
}

// Read the records after `header` into `file` as `format` reads them. An error refuses the file.
// Records handed over in memory (a source's reply, D18) rather than read from a file's bytes.
class RecordList {
public:
  explicit RecordList(std::span<const CsvRecord> records) : m_records(records) {}
  bool next(CsvRecord& record) {
    if (m_next == m_records.size()) {
      return false;
    }
    record = m_records[m_next++];
    return true;
  }
  std::int64_t too_long_line() const { return 0; }
  bool unterminated_quote() const { return false; }

private:
  std::span<const CsvRecord> m_records;
  std::size_t m_next = 0;
};

template <class Reader>
Status read_rows(Reader& reader,
                 const VendorCsvFormat& format,
                 const CsvRecord& header,
                 const ColumnIndex& index,
                 ParsedFile& file) {
  bool every_change_pct = true; // change_pct is derived unless every row has one
  const auto latest = domain::today_utc8();
  CsvRecord record;
  std::int64_t last_line = header.line;
  while (reader.next(record)) {
    last_line = record.line;
    VendorRow row;
    auto kept = read_record(record, format, header.fields.size(), index, row, file);
    if (!kept) {
      return kept.error();
    }
    if (*kept) {
      every_change_pct = every_change_pct && row.change_pct.has_value();
      add_converted(row, format.units, record.line, latest, file);
    }
  }
  if (reader.too_long_line() != 0) {
    return too_long_line_error(reader.too_long_line());
  }
  if (reader.unterminated_quote()) {
    file.problems.push_back(RowProblem{last_line, "row", "unterminated quoted field"});
  }
  file.has_change_pct = every_change_pct;
  return Ok{};
}

} // namespace

Result<ParsedFile> parse_vendor_csv(std::istream& in, const VendorCsvFormat& format, RowSink sink) {
  CsvReader reader(in);
  auto header = read_header(reader, format);
  if (!header) {
    return header.error();
  }
  auto index = find_columns(*header, format.columns, format.description);
  if (!index) {
    return index.error();
  }
  ParsedFile file;
  file.sink = std::move(sink);
  file.has_factor = false;
  if (auto status = read_rows(reader, format, *header, *index, file); !status) {
    return status.error();
  }
  return file;
}

Result<ParsedFile> parse_vendor_records(const CsvRecord& header,
                                        std::span<const CsvRecord> records,
                                        const VendorCsvFormat& format) {
  auto index = find_columns(header, format.columns, format.description);
  if (!index) {
    return index.error();
  }
  ParsedFile file;
  file.has_factor = false;
  RecordList reader(records);
  if (auto status = read_rows(reader, format, header, *index, file); !status) {
    return status.error();
  }
  return file;
}

} // namespace ashare::import
