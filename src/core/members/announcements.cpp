#include "core/members/announcements.hpp"

#include "core/domain/symbol.hpp"
#include "core/import/csv_reader.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace ashare::members {
namespace {

using domain::Date;
using store::MemberSpan;

// Return `text` without the blanks around it.
std::string_view blanks_trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// The columns a membership file's header names, by position (-1: absent).
struct AnnouncementColumns {
  int symbol = -1;
  int opt_in = -1;
  int opt_out = -1;
};

AnnouncementColumns announcement_columns(const std::vector<std::string>& header) {
  AnnouncementColumns columns;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const auto name = blanks_trimmed(header[i]);
    const int at = static_cast<int>(i);
    if (name == "symbol") {
      columns.symbol = at;
    } else if (name == "opt-in") {
      columns.opt_in = at;
    } else if (name == "opt-out") {
      columns.opt_out = at;
    }
  }
  return columns;
}

Error announcement_error(const std::string& name, std::int64_t line, const std::string& what) {
  return make_error(ErrorCode::invalid_input, name + ":" + std::to_string(line) + ": " + what);
}

// Return the row `record` as a span, nullopt (with a warning) when it has no opt-in, or the
// error naming its line.
Result<std::optional<AnnouncedSpan>> read_announcement(const import::CsvRecord& record,
                                                       const AnnouncementColumns& columns,
                                                       const std::string& name,
                                                       std::vector<std::string>& warnings) {
  const auto needed = std::max({columns.symbol, columns.opt_in, columns.opt_out});
  if (static_cast<int>(record.fields.size()) <= needed) {
    return announcement_error(name, record.line,
                              "expected " + std::to_string(needed + 1) + " fields, got "
                                  + std::to_string(record.fields.size()));
  }
  const auto field = [&](int column) { return blanks_trimmed(record.fields[column]); };
  auto symbol = parse_member_symbol(field(columns.symbol));
  if (!symbol) {
    return announcement_error(name, record.line, symbol.error().message);
  }
  if (field(columns.opt_in).empty()) {
    warnings.push_back(name + ":" + std::to_string(record.line) + ": " + *symbol
                       + " has no opt-in date: row skipped");
    return std::optional<AnnouncedSpan>();
  }
  auto opt_in = domain::parse_iso_date(field(columns.opt_in), "opt-in");
  if (!opt_in) {
    return announcement_error(name, record.line, opt_in.error().message);
  }
  AnnouncedSpan span{record.line, std::move(*symbol), *opt_in, std::nullopt};
  if (!field(columns.opt_out).empty()) {
    auto opt_out = domain::parse_iso_date(field(columns.opt_out), "opt-out");
    if (!opt_out) {
      return announcement_error(name, record.line, opt_out.error().message);
    }
    span.opt_out = *opt_out;
  }
  return std::optional(std::move(span));
}

// Return whether a span ending at `last` (nullopt: open) reaches `day`.
bool span_reaches(const std::optional<Date>& last, Date day) {
  return !last || *last >= day;
}

} // namespace

bool is_announcement_header(const std::vector<std::string>& header) {
  const auto columns = announcement_columns(header);
  return columns.symbol >= 0 && columns.opt_in >= 0 && columns.opt_out >= 0;
}

Result<std::string> parse_member_symbol(std::string_view text) {
  // qlib's spelling: the exchange, then the code (SH600000).
  if (text.size() == 8 && std::isalpha(static_cast<unsigned char>(text[0])) != 0
      && std::isalpha(static_cast<unsigned char>(text[1])) != 0) {
    const auto d1 = std::string(text.substr(2)) + "." + std::string(text.substr(0, 2));
    if (auto symbol = domain::parse_symbol(d1)) {
      return symbol->str();
    }
  }
  auto symbol = domain::parse_symbol(text);
  if (!symbol) {
    return symbol.error();
  }
  return symbol->str();
}

Result<Announcements> parse_announcements(std::istream& in, const std::string& name) {
  import::CsvReader reader(in);
  import::CsvRecord record;
  if (!reader.next(record) || !is_announcement_header(record.fields)) {
    return make_error(ErrorCode::invalid_input,
                      name
                          + ": not a membership file: expected the header "
                            "symbol,name,opt-in,opt-out");
  }
  const auto columns = announcement_columns(record.fields);
  Announcements out;
  while (reader.next(record)) {
    auto row = read_announcement(record, columns, name, out.warnings);
    if (!row) {
      return row.error();
    }
    if (*row) {
      out.rows.push_back(std::move(**row));
    }
  }
  if (reader.too_long_line() != 0 || reader.unterminated_quote()) {
    return announcement_error(name,
                              reader.too_long_line() != 0 ? reader.too_long_line() : record.line,
                              "the line is too long or a quote is not closed");
  }
  return out;
}

std::vector<MemberSpan> spans_of_announcements(const std::string& index_symbol,
                                               std::span<const AnnouncedSpan> rows,
                                               const OpenDays& days,
                                               std::vector<std::string>& warnings) {
  std::vector<MemberSpan> read;
  for (const auto& row : rows) {
    const Date first = days.on_or_after(row.opt_in);
    std::optional<Date> last;
    if (row.opt_out) {
      last = days.before(days.on_or_after(*row.opt_out));
    }
    if (last && *last < first) {
      warnings.push_back(std::to_string(row.line) + ": " + row.symbol
                         + " is a member on no open day: row skipped");
      continue;
    }
    read.push_back({index_symbol, row.symbol, first, last, store::MemberSource::import});
  }
  std::sort(read.begin(), read.end(), [](const MemberSpan& a, const MemberSpan& b) {
    return std::tie(a.symbol, a.first_date) < std::tie(b.symbol, b.first_date);
  });
  std::vector<MemberSpan> merged;
  for (auto& span : read) {
    auto* previous = merged.empty() ? nullptr : &merged.back();
    if (previous != nullptr && previous->symbol == span.symbol
        && span_reaches(previous->last_date, span.first_date)) {
      if (previous->last_date && (!span.last_date || *span.last_date > *previous->last_date)) {
        previous->last_date = span.last_date; // overlapping: one span to the later end
      }
      continue;
    }
    merged.push_back(std::move(span));
  }
  return merged;
}

} // namespace ashare::members
