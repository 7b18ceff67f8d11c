#include "core/import/calendar_csv.hpp"

#include "core/import/csv_reader.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace ashare::import {
namespace {

using domain::Date;

// The column names of the two layouts: Tushare Pro's, then the pre-Pro `ts.trade_cal()`'s.
struct CalendarLayout {
  std::string_view date;
  std::string_view is_open;
};
constexpr std::array k_layouts{CalendarLayout{"cal_date", "is_open"},
                               CalendarLayout{"calendarDate", "isOpen"}};

struct Columns {
  std::size_t date = 0;
  std::size_t is_open = 0;
  std::optional<std::size_t> exchange;
  std::string_view date_name;
  std::string_view open_name;
};

std::optional<std::size_t> find_column(const std::vector<std::string>& fields, std::string_view name) {
  const auto it = std::find(fields.begin(), fields.end(), name);
  return it == fields.end() ? std::nullopt : std::optional(static_cast<std::size_t>(it - fields.begin()));
}

std::optional<Columns> find_columns(const std::vector<std::string>& fields) {
  for (const auto& layout : k_layouts) {
    const auto date = find_column(fields, layout.date);
    const auto open = find_column(fields, layout.is_open);
    if (date && open) {
      return Columns{*date, *open, find_column(fields, "exchange"), layout.date, layout.is_open};
    }
  }
  return std::nullopt;
}

// Read "YYYYMMDD" (Tushare Pro) or "YYYY-MM-DD" (the pre-Pro layout).
std::optional<Date> parse_day(const std::string& text) {
  if (text.size() == 8 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return Date::from_yyyymmdd(std::stoll(text));
  }
  if (auto date = domain::parse_iso_date(text, "cal_date")) {
    return *date;
  }
  return std::nullopt;
}

Error problem(std::string_view path, std::int64_t line, std::string_view column, const std::string& what) {
  return make_error(ErrorCode::invalid_input, std::string(path) + ":" + std::to_string(line) + ": "
                                                + std::string(column) + ": " + what);
}

// Return the day and openness of `record`, or the problem with it.
Result<std::pair<Date, bool>> read_row(const CsvRecord& record, const Columns& columns, std::string_view path) {
  const auto field = [&](std::size_t index) {
    return index < record.fields.size() ? record.fields[index] : std::string();
  };
  const auto day = parse_day(field(columns.date));
  if (!day) {
    return problem(path, record.line, columns.date_name,
                   "\"" + field(columns.date) + "\" is not a date (YYYYMMDD or YYYY-MM-DD)");
  }
  const auto open = field(columns.is_open);
  if (open != "0" && open != "1") {
    return problem(path, record.line, columns.open_name, "\"" + open + "\" is not 0 or 1");
  }
  if (columns.exchange && !field(*columns.exchange).empty() && field(*columns.exchange) != "SSE") {
    return problem(path, record.line, "exchange",
                   "\"" + field(*columns.exchange) + "\": the store keeps the SSE calendar (D19)");
  }
  return std::pair{*day, open == "1"};
}

} // namespace

bool is_trade_cal_header(const std::vector<std::string>& fields) {
  return find_columns(fields).has_value();
}

Result<CalendarFile> parse_trade_cal_csv(std::istream& in, std::string_view path) {
  CsvReader reader(in);
  CsvRecord record;
  if (!reader.next(record)) {
    return problem(path, 1, "header", "the file is empty: expected cal_date,is_open");
  }
  const auto columns = find_columns(record.fields);
  if (!columns) {
    return problem(path, record.line, "header", "expected the columns cal_date and is_open");
  }
  std::map<Date, bool> days; // Tushare answers newest first: ordered here
  CalendarFile file;
  while (reader.next(record)) {
    const auto row = read_row(record, *columns, path);
    if (!row) {
      return row.error();
    }
    if (!days.emplace(row->first, row->second).second) {
      return problem(path, record.line, columns->date_name, row->first.iso() + " is given twice");
    }
    ++file.rows;
  }
  if (reader.too_long_line() != 0) {
    return problem(path, reader.too_long_line(), "line", "longer than 64 KiB");
  }
  if (days.empty()) {
    return problem(path, 2, columns->date_name, "no days: the file has a header only");
  }
  file.first = days.begin()->first;
  file.last = days.rbegin()->first;
  for (const auto& [day, open] : days) {
    if (open) {
      file.open_days.push_back(day);
    }
  }
  return file;
}

} // namespace ashare::import
