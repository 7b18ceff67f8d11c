#include "core/fetch/tushare/tables.hpp"

#include "core/domain/kind.hpp"
#include "core/domain/number.hpp"
#include "core/domain/symbol.hpp"
#include "core/import/vendor_csv.hpp"
#include "core/import/vendor_formats.hpp"

#include <algorithm>
#include <array>

namespace ashare::fetch::tushare {
namespace {

constexpr const char* k_daily_columns[] = {"ts_code", "trade_date", "open", "high", "low",
                                           "close", "pre_close", "pct_chg", "vol", "amount"};

Error missing_column(std::string_view api, std::string_view column) {
  return make_error(ErrorCode::invalid_input,
                    "Tushare `" + std::string(api) + "` answered without a `" + std::string(column)
                        + "` column");
}

// Return the index of each of `names` in `table`, or the error naming the first missing one.
template <std::size_t N>
Result<std::array<std::size_t, N>>
columns_of(const Table& table, const char* const (&names)[N], std::string_view api) {
  std::array<std::size_t, N> index{};
  for (std::size_t i = 0; i < N; ++i) {
    const auto found = table.column(names[i]);
    if (!found) {
      return missing_column(api, names[i]);
    }
    index[i] = *found;
  }
  return index;
}

const std::string& cell(const std::vector<std::optional<std::string>>& row, std::size_t column) {
  static const std::string empty;
  return row[column] ? *row[column] : empty;
}

std::optional<domain::Date> date_cell(const std::vector<std::optional<std::string>>& row,
                                      std::size_t column) {
  return row[column] ? import::parse_date_text(*row[column]) : std::nullopt;
}

} // namespace

std::string DailyRows::code_on_line(std::int64_t line) const {
  const auto index = static_cast<std::size_t>(line - 2);
  return line >= 2 && index < row_codes.size() ? row_codes[index] : std::string();
}

std::optional<domain::Date> DailyRows::day_on_line(std::int64_t line) const {
  const auto index = static_cast<std::size_t>(line - 2);
  return line >= 2 && index < row_days.size() ? import::parse_date_text(row_days[index]) : std::nullopt;
}

Result<DailyRows> read_daily(Table table) {
  const auto index = columns_of(table, k_daily_columns, "daily");
  if (!index) {
    return index.error();
  }
  // The answer's cells go through the importer's own reading of a Tushare daily file, so that a
  // fetched bar is exactly an imported one: the same units, decimals and checks (D18).
  import::CsvRecord header{1, {}};
  for (const char* column : k_daily_columns) {
    header.fields.emplace_back(column);
  }
  std::vector<import::CsvRecord> records(table.items.size());
  DailyRows rows;
  rows.row_codes.reserve(table.items.size());
  rows.row_days.reserve(table.items.size());
  for (std::size_t i = 0; i < table.items.size(); ++i) {
    records[i].line = static_cast<std::int64_t>(i) + 2;
    records[i].fields.reserve(index->size());
    for (const auto column : *index) {
      auto& text = table.items[i][column];
      records[i].fields.push_back(text ? std::move(*text) : std::string());
    }
    rows.row_codes.push_back(records[i].fields[0]);
    rows.row_days.push_back(records[i].fields[1]);
  }
  auto parsed = import::parse_tushare_daily_records(header, records);
  if (!parsed) {
    return parsed.error();
  }
  rows.file = std::move(*parsed);
  return rows;
}

Result<std::vector<AdjFactor>> read_adj_factor_rows(const Table& table) {
  const char* const names[] = {"ts_code", "trade_date", "adj_factor"};
  const auto index = columns_of(table, names, "adj_factor");
  if (!index) {
    return index.error();
  }
  std::vector<AdjFactor> rows;
  for (const auto& item : table.items) {
    const auto symbol = domain::parse_symbol(cell(item, (*index)[0]));
    const auto date = date_cell(item, (*index)[1]);
    const auto number = import::read_number_field(cell(item, (*index)[2]));
    const auto* factor = std::get_if<double>(&number);
    if (symbol && date && factor != nullptr && *factor >= import::k_min_factor
        && *factor <= import::k_max_factor) {
      rows.push_back({symbol->str(), *date, *factor});
    }
  }
  return rows;
}

Result<std::unordered_map<std::string, double>> read_adj_factors(const Table& table) {
  auto rows = read_adj_factor_rows(table);
  if (!rows) {
    return rows.error();
  }
  std::unordered_map<std::string, double> factors;
  factors.reserve(rows->size());
  for (const auto& row : *rows) {
    factors[row.symbol] = row.value;
  }
  return factors;
}

Result<std::vector<std::pair<std::string, domain::Date>>> read_suspensions(const Table& table) {
  const char* const names[] = {"ts_code", "trade_date"};
  const auto index = columns_of(table, names, "suspend_d");
  if (!index) {
    return index.error();
  }
  const auto type = table.column("suspend_type");
  std::vector<std::pair<std::string, domain::Date>> days;
  for (const auto& item : table.items) {
    const auto symbol = domain::parse_symbol(cell(item, (*index)[0]));
    const auto date = date_cell(item, (*index)[1]);
    // suspend_type R rows are resumptions: the day has a bar.
    if (symbol && date && (!type || cell(item, *type) != "R")) {
      days.emplace_back(symbol->str(), *date);
    }
  }
  return days;
}

Result<std::map<domain::Date, std::vector<store::MemberWeight>>> read_index_weight(const Table& table) {
  const char* const names[] = {"con_code", "trade_date", "weight"};
  const auto index = columns_of(table, names, "index_weight");
  if (!index) {
    return index.error();
  }
  std::map<domain::Date, std::vector<store::MemberWeight>> snapshots;
  for (const auto& item : table.items) {
    const auto symbol = domain::parse_symbol(cell(item, (*index)[0]));
    const auto date = date_cell(item, (*index)[1]);
    const auto weight = domain::parse_double(cell(item, (*index)[2]));
    if (symbol && date && weight && domain::classify_code(symbol->str()).kind) {
      snapshots[*date].push_back({symbol->str(), *weight});
    }
  }
  for (auto& [day, members] : snapshots) {
    std::sort(members.begin(), members.end(),
              [](const store::MemberWeight& a, const store::MemberWeight& b) { return a.symbol < b.symbol; });
  }
  return snapshots;
}

Result<std::vector<store::Listing>> read_listings(const Table& table) {
  const char* const names[] = {"ts_code", "name", "list_date", "list_status"};
  const auto index = columns_of(table, names, "stock_basic");
  if (!index) {
    return index.error();
  }
  const auto delist = table.column("delist_date");
  std::vector<store::Listing> listings;
  for (const auto& item : table.items) {
    const auto symbol = domain::parse_symbol(cell(item, (*index)[0]));
    const auto& status = cell(item, (*index)[3]);
    if (!symbol || status.size() != 1 || std::string_view("LDP").find(status[0]) == std::string_view::npos) {
      continue;
    }
    store::Listing listing;
    listing.symbol = symbol->str();
    listing.name = cell(item, (*index)[1]);
    listing.list_date = date_cell(item, (*index)[2]);
    listing.delist_date = delist ? date_cell(item, *delist) : std::nullopt;
    listing.status = status[0];
    listings.push_back(std::move(listing));
  }
  return listings;
}

Result<std::vector<store::Listing>> read_fund_listings(const Table& table) {
  const char* const names[] = {"ts_code", "name", "list_date"};
  const auto index = columns_of(table, names, "fund_basic");
  if (!index) {
    return index.error();
  }
  const auto delist = table.column("delist_date");
  const auto status = table.column("status");
  std::vector<store::Listing> listings;
  for (const auto& item : table.items) {
    const auto symbol = domain::parse_symbol(cell(item, (*index)[0]));
    const auto& state = status ? cell(item, *status) : std::string("L");
    if (!symbol || domain::classify_code(symbol->str()).kind != domain::Kind::fund || (state != "L" && state != "D")) {
      continue;
    }
    store::Listing listing{symbol->str(), cell(item, (*index)[1]), date_cell(item, (*index)[2]),
                           delist ? date_cell(item, *delist) : std::nullopt, state[0], domain::Kind::fund};
    listings.push_back(std::move(listing));
  }
  return listings;
}

Result<std::vector<store::Listing>> read_index_listings(const Table& table) {
  const char* const names[] = {"ts_code", "name", "list_date"};
  const auto index = columns_of(table, names, "index_basic");
  if (!index) {
    return index.error();
  }
  const auto expiry = table.column("exp_date");
  std::vector<store::Listing> listings;
  for (const auto& item : table.items) {
    const auto symbol = domain::parse_symbol(cell(item, (*index)[0]));
    if (!symbol || domain::classify_code(symbol->str()).kind != domain::Kind::index) {
      continue;
    }
    const auto expired = expiry ? date_cell(item, *expiry) : std::nullopt;
    store::Listing listing{symbol->str(), cell(item, (*index)[1]), date_cell(item, (*index)[2]), expired,
                           expired ? 'D' : 'L', domain::Kind::index};
    listings.push_back(std::move(listing));
  }
  return listings;
}

Result<std::vector<store::CodeAlias>> read_bse_mapping(const Table& table) {
  const char* const names[] = {"o_code", "n_code"};
  const auto index = columns_of(table, names, "bse_mapping");
  if (!index) {
    return index.error();
  }
  std::vector<store::CodeAlias> aliases;
  for (const auto& item : table.items) {
    const auto old_symbol = domain::parse_symbol(cell(item, (*index)[0]));
    const auto new_symbol = domain::parse_symbol(cell(item, (*index)[1]));
    const auto beijing = [](const Result<domain::Symbol>& symbol) {
      return symbol && symbol->str().ends_with(".BJ");
    };
    if (!beijing(old_symbol) || !beijing(new_symbol) || !new_symbol->str().starts_with("920")
        || old_symbol->str() == new_symbol->str()) {
      return make_error(ErrorCode::invalid_input,
                        "Tushare `bse_mapping` answered a row that maps no old Beijing code to a 920xxx one: "
                            + import::quoted(cell(item, (*index)[0])) + " -> "
                            + import::quoted(cell(item, (*index)[1])));
    }
    aliases.push_back({old_symbol->str(), new_symbol->str()});
  }
  return aliases;
}

Result<CalendarAnswer> read_calendar(const Table& table) {
  const char* const names[] = {"cal_date", "is_open"};
  const auto index = columns_of(table, names, "trade_cal");
  if (!index) {
    return index.error();
  }
  CalendarAnswer answer;
  for (const auto& item : table.items) {
    const auto date = date_cell(item, (*index)[0]);
    if (!date) {
      return make_error(ErrorCode::invalid_input,
                        "Tushare `trade_cal` answered a cal_date that is not a date: "
                            + import::quoted(cell(item, (*index)[0])));
    }
    if (!answer.span) {
      answer.span = std::make_pair(*date, *date);
    }
    answer.span->first = std::min(answer.span->first, *date);
    answer.span->second = std::max(answer.span->second, *date);
    if (cell(item, (*index)[1]) == "1") {
      answer.open_days.push_back(*date);
    }
  }
  std::sort(answer.open_days.begin(), answer.open_days.end());
  return answer;
}

} // namespace ashare::fetch::tushare
