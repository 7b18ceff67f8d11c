#include "core/import/canonical_csv.hpp"

#include "core/domain/number.hpp"
#include "core/domain/symbol.hpp"
#include "core/import/csv_reader.hpp"
#include "core/import/vendor_csv.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <variant>

namespace ashare::import {
namespace {
// The canonical format's own names, apart from the other formats' (a unity build joins files).
namespace canonical {

enum Column { symbol, trade_date, open, high, low, close, volume, turnover, change_pct, factor };

struct ColumnSpec {
  Column column;
  std::string_view name;
  bool required;
};

constexpr std::array k_columns{
  ColumnSpec{symbol, "symbol", true},         ColumnSpec{trade_date, "trade_date", true},
  ColumnSpec{open, "open", true},             ColumnSpec{high, "high", true},
  ColumnSpec{low, "low", true},               ColumnSpec{close, "close", true},
  ColumnSpec{volume, "volume", true},         ColumnSpec{turnover, "turnover", true},
  ColumnSpec{change_pct, "change_pct", false}, ColumnSpec{factor, "factor", false},
};

std::string normalised_header(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

// Parses one row's fields; the first problem found wins.
class RowParser {
public:
  RowParser(const std::vector<std::string>& fields,
            const std::array<std::optional<std::size_t>, k_columns.size()>& index,
            std::int64_t line)
    : m_fields(fields), m_index(index), m_line(line) {}

  std::optional<RowProblem> problem;

  std::string_view text(Column column) const { return m_fields[*m_index[column]]; }

  double number(Column column) {
    if (problem) {
      return 0;
    }
    auto value = read_number_field(text(column));
    if (auto* message = std::get_if<std::string>(&value)) {
      fail(column, std::move(*message));
      return 0;
    }
    return std::get<double>(value);
  }

  std::int64_t whole_number(Column column) {
    if (problem) {
      return 0;
    }
    if (const auto plain = domain::parse_plain_integer(text(column))) {
      return *plain;
    }
    const auto decimal = read_decimal_field(text(column));
    if (const auto* message = std::get_if<std::string>(&decimal)) {
      fail(column, *message);
      return 0;
    }
    const auto value = domain::to_int64(std::get<domain::Decimal>(decimal));
    if (!value) {
      fail(column, quoted(text(column)) + " is not a whole number of shares");
      return 0;
    }
    return *value;
  }

  void fail(Column column, std::string message) {
    if (!problem) {
      problem = RowProblem{m_line, std::string(k_columns[column].name), std::move(message)};
    }
  }

private:
  const std::vector<std::string>& m_fields;
  const std::array<std::optional<std::size_t>, k_columns.size()>& m_index;
  std::int64_t m_line;
};

std::variant<ParsedRow, RowProblem> parse_row(const CsvRecord& record,
                                              const std::array<std::optional<std::size_t>,
                                                               k_columns.size()>& index,
                                              domain::Date latest) {
  RowParser row(record.fields, index, record.line);
  ParsedRow parsed;
  parsed.line = record.line;
  auto parsed_symbol = domain::parse_symbol(row.text(Column::symbol));
  if (!parsed_symbol) {
    row.fail(Column::symbol, parsed_symbol.error().message);
  } else {
    parsed.symbol = parsed_symbol->str();
  }
  if (!row.problem) {
    const auto date = parse_date_text(row.text(trade_date));
    if (!date) {
      row.fail(trade_date,
               quoted(row.text(trade_date)) + " is not a date YYYY-MM-DD");
    } else {
      parsed.bar.trade_date = *date;
    }
  }
  parsed.bar.open = row.number(open);
  parsed.bar.high = row.number(high);
  parsed.bar.low = row.number(low);
  parsed.bar.close = row.number(close);
  parsed.bar.volume = row.whole_number(volume);
  parsed.bar.turnover = row.number(turnover);
  parsed.bar.change_pct = index[change_pct] ? row.number(change_pct) : 0.0;
  parsed.has_change_pct = index[change_pct].has_value();
  parsed.bar.factor = index[factor] ? row.number(factor) : 1.0;
  if (row.problem) {
    return *row.problem;
  }
  if (auto problem = check_bar(parsed.bar, record.line, latest); !problem.column.empty()) {
    return problem;
  }
  return parsed;
}

} // namespace canonical
} // namespace

Result<ParsedFile> parse_canonical_csv(std::istream& in, RowSink sink) {
  using namespace canonical;
  CsvReader reader(in);
  CsvRecord header;
  if (!reader.next(header)) {
    if (reader.too_long_line() != 0) {
      return too_long_line_error(reader.too_long_line());
    }
    return file_error(1, "header", "the file is empty: expected a header row naming the columns");
  }
  std::array<std::optional<std::size_t>, k_columns.size()> index;
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const std::string name = normalised_header(header.fields[i]);
    for (const auto& spec : k_columns) {
      if (spec.name != name) {
        continue;
      }
      if (index[spec.column]) {
        return file_error(header.line, "header", "column \"" + name + "\" is named twice");
      }
      index[spec.column] = i;
    }
  }
  for (const auto& spec : k_columns) {
    if (spec.required && !index[spec.column]) {
      return file_error(header.line, "header",
                        "missing column \"" + std::string(spec.name)
                          + "\" (the canonical columns are symbol, trade_date, open, high, low, "
                            "close, volume, turnover and optionally change_pct, factor)");
    }
  }

  ParsedFile file;
  file.sink = std::move(sink);
  file.has_change_pct = index[change_pct].has_value();
  file.has_factor = index[factor].has_value();
  CsvRecord record;
  std::int64_t last_line = header.line; // where the last record starts
  const auto latest = domain::today_utc8();
  while (reader.next(record)) {
    last_line = record.line;
    if (auto problem = field_count_problem(record, header.fields.size())) {
      file.problems.push_back(std::move(*problem));
      continue;
    }
    auto row = parse_row(record, index, latest);
    if (auto* problem = std::get_if<RowProblem>(&row)) {
      file.problems.push_back(std::move(*problem));
    } else {
      file.add_row(std::get<ParsedRow>(std::move(row)));
    }
  }
  if (reader.too_long_line() != 0) {
    return too_long_line_error(reader.too_long_line());
  }
  if (reader.unterminated_quote()) {
    file.problems.push_back(RowProblem{last_line, "row", "unterminated quoted field"});
  }
  return file;
}

} // namespace ashare::import
