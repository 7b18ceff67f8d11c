// The market record's one implementation: each table's statements in the SQL both backends read
// (store/sql_session.hpp), and the rows read back into its types. Dates are YYYYMMDD integers
// (store/stored_date.hpp); the calendar's is_open is 1 or 0 (a boolean column on PostgreSQL).
#include "core/store/market_record.hpp"

#include "core/domain/number.hpp"
#include "core/store/calendar_days.hpp"
#include "core/store/stored_date.hpp"
#include "core/store/stored_kind.hpp"

#include <algorithm>

namespace ashare::store {
namespace {

using domain::Date;

SqlValue key(Date date) { return SqlValue(std::int64_t{date.yyyymmdd()}); }

SqlValue optional_key(std::optional<Date> date) {
  return date ? key(*date) : SqlValue(std::nullopt);
}

std::optional<Date> optional_date(const SqlRow& row, int column) {
  const auto value = row.optional_int64(column);
  return value ? std::optional(stored_date(*value)) : std::nullopt;
}

// D20: the kind in `column`, a listing's or a ledger row's (never NULL there).
domain::Kind kind_of(const SqlRow& row, int column) {
  return stored_kind(row.text(column)).value_or(domain::Kind::stock);
}

// Calendar rows per INSERT (two parameters each): a whole calendar (13,000 days) in a few
// statements rather than a round trip a day on a database server.
constexpr std::size_t k_calendar_rows_per_insert = 500;

// Return an INSERT of `rows` calendar rows: ($1, $2), ($3, $4), ...
SqlStatement calendar_insert(std::size_t rows) {
  std::string sql = "INSERT INTO calendar(trade_date, is_open) VALUES ";
  for (std::size_t i = 0; i < rows; ++i) {
    sql += (i > 0 ? ", ($" : "($") + std::to_string(2 * i + 1) + ", $" + std::to_string(2 * i + 2)
           + ")";
  }
  return {"", sql}; // its size varies: run once
}

// Rows per INSERT of snapshots and spans: an index's history of monthly snapshots (300 members,
// 20 years: 70,000 rows) in a few hundred statements on a database server, not 70,000.
constexpr std::size_t k_member_rows_per_insert = 200;

// Return an INSERT of `rows` rows of `columns` values each into `table_columns` ("t(a, b)").
SqlStatement rows_insert(const std::string& table_columns, std::size_t rows, std::size_t columns) {
  std::string sql = "INSERT INTO " + table_columns + " VALUES ";
  for (std::size_t i = 0; i < rows; ++i) {
    sql += i > 0 ? ", (" : "(";
    for (std::size_t c = 0; c < columns; ++c) {
      sql += (c > 0 ? ", $" : "$") + std::to_string(i * columns + c + 1);
    }
    sql += ")";
  }
  return {"", sql}; // its size varies: run once
}

// Insert `params` (`columns` a row) into `table_columns`, k_member_rows_per_insert rows a
// statement.
void insert_rows(SqlSession& sql,
                 const std::string& table_columns,
                 std::size_t columns,
                 const std::vector<SqlValue>& params) {
  const std::size_t rows = params.size() / columns;
  for (std::size_t first = 0; first < rows; first += k_member_rows_per_insert) {
    const auto count = std::min(k_member_rows_per_insert, rows - first);
    const auto begin = params.begin() + static_cast<std::ptrdiff_t>(first * columns);
    sql.run(rows_insert(table_columns, count, columns),
            std::span(&*begin, count * columns), {});
  }
}

// D20: a span's source as the store spells it.
const char* source_name(MemberSource source) {
  return source == MemberSource::tushare ? "tushare" : "import";
}

} // namespace

// Every statement of the record, named for the connection that prepares it. Text columns in
// ORDER BY are followed by the dialect's byte order (std::string's, on either backend).
struct MarketRecord::Statements {
  explicit Statements(const SqlDialect& dialect)
    : listings{"market_listings", "SELECT symbol, name, list_date, delist_date, status, kind "
                                  "FROM listings ORDER BY symbol" + dialect.byte_order},
      every_suspension{"market_every_suspension", "SELECT symbol, trade_date FROM suspensions "
                                                  "ORDER BY symbol" + dialect.byte_order
                                                    + ", trade_date"},
      absences{"market_absences", "SELECT symbol, trade_date, provider FROM absences "
                                  "WHERE $1 = '' OR symbol = $1 ORDER BY symbol"
                                    + dialect.byte_order + ", trade_date, provider"
                                    + dialect.byte_order},
      ledger{"market_ledger", "SELECT provider, trade_date, symbol, rows, kind FROM fetch_ledger "
                              "WHERE $1 = '' OR provider = $1 ORDER BY trade_date, symbol"
                                + dialect.byte_order + ", provider" + dialect.byte_order
                                + ", kind" + dialect.byte_order},
      aliases{"market_aliases", "SELECT old_symbol, new_symbol FROM code_aliases "
                                "ORDER BY old_symbol" + dialect.byte_order},
      snapshot{"market_snapshot", "SELECT symbol, weight FROM member_snapshots "
                                  "WHERE index_symbol = $1 AND trade_date = $2 ORDER BY symbol"
                                    + dialect.byte_order},
      member_spans{"market_member_spans",
                   "SELECT index_symbol, symbol, first_date, last_date FROM member_spans "
                   "WHERE ($1 = '' OR index_symbol = $1) AND source = $2 ORDER BY index_symbol"
                     + dialect.byte_order + ", symbol" + dialect.byte_order + ", first_date"},
      member_spans_on{"market_member_spans_on",
                      "SELECT index_symbol, symbol, first_date, last_date FROM member_spans "
                      "WHERE index_symbol = $1 AND source = $2 AND first_date <= $3 "
                      "AND (last_date IS NULL OR last_date >= $3) ORDER BY symbol"
                        + dialect.byte_order + ", first_date"},
      member_indices{"market_member_indices",
                     "SELECT index_symbol FROM (SELECT index_symbol FROM member_spans UNION "
                     "SELECT index_symbol FROM member_snapshots) AS indices ORDER BY index_symbol"
                       + dialect.byte_order} {}

  // D19: the calendar.
  SqlStatement open_days{"market_open_days",
                         "SELECT trade_date FROM calendar WHERE trade_date BETWEEN $1 AND $2 "
                         "AND is_open ORDER BY trade_date"};
  // Two subqueries: SQLite reads min() or max() alone from the key's ends, but a SELECT of both
  // scans the whole table (13,000 rows of the shipped calendar, about 1 ms a one-shot query).
  SqlStatement calendar_span{"market_calendar_span",
                             "SELECT (SELECT min(trade_date) FROM calendar), "
                             "(SELECT max(trade_date) FROM calendar)"};
  SqlStatement calendar_clear{"market_calendar_clear",
                              "DELETE FROM calendar WHERE trade_date BETWEEN $1 AND $2"};
  // D19: listings, suspensions, absence marks.
  SqlStatement listings;
  SqlStatement listing_write{
    "market_listing_write",
    "INSERT INTO listings(symbol, name, list_date, delist_date, status, kind) "
    "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (symbol) DO UPDATE SET name = excluded.name, "
    "list_date = excluded.list_date, delist_date = excluded.delist_date, "
    "status = excluded.status, kind = excluded.kind"};
  // D20: a listing's kind (the symbol's summary holds the same: the schema's trigger).
  SqlStatement listing_kind{"market_listing_kind", "SELECT kind FROM listings WHERE symbol = $1"};
  SqlStatement suspensions{"market_suspensions",
                           "SELECT trade_date FROM suspensions WHERE symbol = $1 "
                           "ORDER BY trade_date"};
  SqlStatement every_suspension;
  SqlStatement suspension_write{"market_suspension_write",
                                "INSERT INTO suspensions(symbol, trade_date) VALUES ($1, $2) "
                                "ON CONFLICT DO NOTHING"};
  SqlStatement absences;
  SqlStatement absence_write{"market_absence_write",
                             "INSERT INTO absences(symbol, trade_date, provider) "
                             "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"};
  SqlStatement absence_delete{"market_absence_delete",
                              "DELETE FROM absences WHERE symbol = $1 AND trade_date = $2"};
  // D18: the ledger.
  SqlStatement ledger;
  SqlStatement ledger_write{"market_ledger_write",
                            "INSERT INTO fetch_ledger(provider, trade_date, symbol, rows, kind) "
                            "VALUES ($1, $2, $3, $4, $5) "
                            "ON CONFLICT (provider, trade_date, kind, symbol) "
                            "DO UPDATE SET rows = excluded.rows"};
  SqlStatement ledger_forget_symbols{"market_ledger_forget_symbols",
                                     "DELETE FROM fetch_ledger WHERE provider = $1 "
                                     "AND trade_date = $2 AND kind = $3 AND symbol <> ''"};
  // D19: code aliases.
  SqlStatement aliases;
  // Two lookups, not `old_symbol = $1 OR new_symbol = $1`: SQLite answers that OR over two
  // indexes with a temporary b-tree, which opens a page cache of its own (an 87 KB allocation,
  // 30,000 instructions in a one-shot query; issue 43, P2). The second leaves out the row the
  // first found.
  SqlStatement alias_of{"market_alias_of",
                        "SELECT old_symbol, new_symbol FROM code_aliases WHERE old_symbol = $1 "
                        "UNION ALL SELECT old_symbol, new_symbol FROM code_aliases "
                        "WHERE new_symbol = $1 AND old_symbol <> $1"};
  SqlStatement alias_forget{"market_alias_forget",
                            "DELETE FROM code_aliases WHERE old_symbol = $1 OR new_symbol = $2"};
  SqlStatement alias_write{"market_alias_write",
                           "INSERT INTO code_aliases(old_symbol, new_symbol) VALUES ($1, $2)"};
  // D20: index membership.
  SqlStatement snapshot_days{"market_snapshot_days",
                             "SELECT DISTINCT trade_date FROM member_snapshots "
                             "WHERE index_symbol = $1 ORDER BY trade_date"};
  SqlStatement snapshot;
  SqlStatement snapshot_clear{"market_snapshot_clear",
                              "DELETE FROM member_snapshots WHERE index_symbol = $1 "
                              "AND trade_date = $2"};
  SqlStatement member_spans;
  SqlStatement member_spans_on;
  SqlStatement member_spans_any{"market_member_spans_any",
                                "SELECT 1 FROM member_spans WHERE index_symbol = $1 "
                                "AND source = $2 LIMIT 1"};
  SqlStatement member_spans_clear{"market_member_spans_clear",
                                  "DELETE FROM member_spans WHERE index_symbol = $1 "
                                  "AND source = $2"};
  SqlStatement member_indices;
};

MarketRecord::MarketRecord(SqlSession& sql)
  : m_sql(sql), m_statements(std::make_unique<const Statements>(sql.dialect())) {}

MarketRecord::~MarketRecord() = default;

std::vector<Date> MarketRecord::load_open_days(Date from, Date to) {
  std::vector<Date> days;
  m_sql.run(m_statements->open_days, {key(from), key(to)},
            [&](const SqlRow& row) { days.push_back(stored_date(row.int64(0))); });
  return days;
}

std::optional<std::pair<Date, Date>> MarketRecord::load_calendar_span() {
  std::optional<std::pair<Date, Date>> span;
  m_sql.run(m_statements->calendar_span, {}, [&](const SqlRow& row) {
    if (!row.is_null(0)) {
      span = std::pair{stored_date(row.int64(0)), stored_date(row.int64(1))};
    }
  });
  return span;
}

void MarketRecord::save_calendar(Date from, Date to, const std::vector<Date>& open_days) {
  m_sql.run(m_statements->calendar_clear, {key(from), key(to)});
  const auto days = calendar_days(from, to, open_days);
  std::vector<SqlValue> params;
  for (std::size_t first = 0; first < days.size(); first += k_calendar_rows_per_insert) {
    const auto rows = std::min(k_calendar_rows_per_insert, days.size() - first);
    params.clear();
    for (std::size_t i = first; i < first + rows; ++i) {
      params.emplace_back(days[i].yyyymmdd);
      params.emplace_back(days[i].is_open ? 1 : 0);
    }
    m_sql.run(calendar_insert(rows), params, {});
  }
}

std::vector<Listing> MarketRecord::load_listings() {
  std::vector<Listing> out;
  m_sql.run(m_statements->listings, {}, [&](const SqlRow& row) {
    const auto status = row.text(4);
    out.push_back({std::string(row.text(0)), std::string(row.text(1)), optional_date(row, 2),
                   optional_date(row, 3), status.empty() ? 'L' : status.front(), kind_of(row, 5)});
  });
  return out;
}

void MarketRecord::save_listing(const Listing& listing) {
  const std::string status(1, listing.status);
  m_sql.run(m_statements->listing_write,
            {listing.symbol, listing.name, optional_key(listing.list_date),
             optional_key(listing.delist_date), status, domain::kind_name(listing.kind)});
}

std::vector<Date> MarketRecord::load_suspensions(const std::string& symbol) {
  std::vector<Date> out;
  m_sql.run(m_statements->suspensions, {symbol},
            [&](const SqlRow& row) { out.push_back(stored_date(row.int64(0))); });
  return out;
}

std::vector<std::pair<std::string, Date>> MarketRecord::load_suspensions() {
  std::vector<std::pair<std::string, Date>> out;
  m_sql.run(m_statements->every_suspension, {}, [&](const SqlRow& row) {
    out.emplace_back(std::string(row.text(0)), stored_date(row.int64(1)));
  });
  return out;
}

void MarketRecord::save_suspension(const std::string& symbol, Date date) {
  m_sql.run(m_statements->suspension_write, {symbol, key(date)});
}

std::vector<Absence> MarketRecord::load_absences(const std::string& symbol) {
  std::vector<Absence> out;
  m_sql.run(m_statements->absences, {symbol}, [&](const SqlRow& row) {
    out.push_back({std::string(row.text(0)), stored_date(row.int64(1)), std::string(row.text(2))});
  });
  return out;
}

void MarketRecord::save_absence(const Absence& absence) {
  m_sql.run(m_statements->absence_write,
            {absence.symbol, key(absence.trade_date), absence.provider});
}

void MarketRecord::delete_absence(const std::string& symbol, Date date) {
  m_sql.run(m_statements->absence_delete, {symbol, key(date)});
}

std::vector<LedgerDay> MarketRecord::load_ledger(const std::string& provider) {
  std::vector<LedgerDay> out;
  m_sql.run(m_statements->ledger, {provider}, [&](const SqlRow& row) {
    out.push_back({std::string(row.text(0)), stored_date(row.int64(1)), std::string(row.text(2)),
                   row.int64(3), kind_of(row, 4)});
  });
  return out;
}

void MarketRecord::save_ledger_day(const LedgerDay& day) {
  m_sql.run(m_statements->ledger_write, {day.provider, key(day.trade_date), day.symbol, day.rows,
                                          domain::kind_name(day.kind)});
}

void MarketRecord::forget_symbol_ledger_days(const std::string& provider, Date date, domain::Kind kind) {
  m_sql.run(m_statements->ledger_forget_symbols, {provider, key(date), domain::kind_name(kind)});
}

std::optional<domain::Kind> MarketRecord::load_kind(const std::string& symbol) {
  std::optional<domain::Kind> kind;
  m_sql.run(m_statements->listing_kind, {symbol},
            [&](const SqlRow& row) { kind = kind_of(row, 0); });
  return kind ? kind : domain::classify_code(symbol).kind;
}

std::vector<CodeAlias> MarketRecord::load_aliases() {
  std::vector<CodeAlias> out;
  m_sql.run(m_statements->aliases, {}, [&](const SqlRow& row) {
    out.push_back({std::string(row.text(0)), std::string(row.text(1))});
  });
  return out;
}

std::optional<CodeAlias> MarketRecord::load_alias_of(const std::string& symbol) {
  std::optional<CodeAlias> out;
  m_sql.run(m_statements->alias_of, {symbol}, [&](const SqlRow& row) {
    out = CodeAlias{std::string(row.text(0)), std::string(row.text(1))};
  });
  return out;
}

void MarketRecord::save_alias(const CodeAlias& alias) {
  m_sql.run(m_statements->alias_forget, {alias.old_symbol, alias.new_symbol});
  m_sql.run(m_statements->alias_write, {alias.old_symbol, alias.new_symbol});
}

std::vector<Date> MarketRecord::load_snapshot_days(const std::string& index_symbol) {
  std::vector<Date> days;
  m_sql.run(m_statements->snapshot_days, {index_symbol},
            [&](const SqlRow& row) { days.push_back(stored_date(row.int64(0))); });
  return days;
}

std::vector<MemberWeight> MarketRecord::load_snapshot(const std::string& index_symbol, Date day) {
  std::vector<MemberWeight> out;
  m_sql.run(m_statements->snapshot, {index_symbol, key(day)}, [&](const SqlRow& row) {
    // D12: the text written (format_number's, or the double's shortest text on PostgreSQL)
    // reads back as the same double.
    out.push_back({std::string(row.text(0)), domain::parse_double(row.text(1)).value_or(0)});
  });
  return out;
}

void MarketRecord::save_snapshot(const std::string& index_symbol,
                                 Date day,
                                 const std::vector<MemberWeight>& members) {
  m_sql.run(m_statements->snapshot_clear, {index_symbol, key(day)});
  std::vector<std::string> weights; // the texts the parameters view
  weights.reserve(members.size());
  std::vector<SqlValue> params;
  params.reserve(members.size() * 4);
  for (const auto& member : members) {
    weights.push_back(domain::format_number(member.weight));
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    params.insert(params.end(), {SqlValue(index_symbol), key(day), SqlValue(members[i].symbol),
                                 SqlValue(weights[i])});
  }
  insert_rows(m_sql, "member_snapshots(index_symbol, trade_date, symbol, weight)", 4, params);
}

std::vector<MemberSpan> MarketRecord::load_member_spans(const std::string& index_symbol,
                                                        MemberSource source) {
  std::vector<MemberSpan> out;
  m_sql.run(m_statements->member_spans, {index_symbol, source_name(source)},
            [&](const SqlRow& row) {
              out.push_back({std::string(row.text(0)), std::string(row.text(1)),
                             stored_date(row.int64(2)), optional_date(row, 3), source});
            });
  return out;
}

std::vector<MemberSpan> MarketRecord::load_member_spans_on(const std::string& index_symbol,
                                                           MemberSource source,
                                                           Date day) {
  std::vector<MemberSpan> out;
  m_sql.run(m_statements->member_spans_on, {index_symbol, source_name(source), key(day)},
            [&](const SqlRow& row) {
              out.push_back({std::string(row.text(0)), std::string(row.text(1)),
                             stored_date(row.int64(2)), optional_date(row, 3), source});
            });
  return out;
}

bool MarketRecord::has_member_spans(const std::string& index_symbol, MemberSource source) {
  bool found = false;
  m_sql.run(m_statements->member_spans_any, {index_symbol, source_name(source)},
            [&](const SqlRow&) { found = true; });
  return found;
}

void MarketRecord::save_member_spans(const std::string& index_symbol,
                                     MemberSource source,
                                     const std::vector<MemberSpan>& spans) {
  m_sql.run(m_statements->member_spans_clear, {index_symbol, source_name(source)});
  std::vector<SqlValue> params;
  params.reserve(spans.size() * 5);
  for (const auto& span : spans) {
    params.insert(params.end(), {SqlValue(index_symbol), SqlValue(source_name(source)),
                                 SqlValue(span.symbol), key(span.first_date),
                                 optional_key(span.last_date)});
  }
  insert_rows(m_sql, "member_spans(index_symbol, source, symbol, first_date, last_date)", 5,
              params);
}

std::vector<std::string> MarketRecord::load_member_indices() {
  std::vector<std::string> out;
  m_sql.run(m_statements->member_indices, {},
            [&](const SqlRow& row) { out.emplace_back(row.text(0)); });
  return out;
}

void copy_market_record(MarketRecord& from, MarketRecord& to) {
  if (const auto span = from.load_calendar_span()) {
    to.save_calendar(span->first, span->second, from.load_open_days(span->first, span->second));
  }
  for (const auto& listing : from.load_listings()) {
    to.save_listing(listing);
  }
  for (const auto& [symbol, day] : from.load_suspensions()) {
    to.save_suspension(symbol, day);
  }
  for (const auto& absence : from.load_absences("")) {
    to.save_absence(absence);
  }
  for (const auto& day : from.load_ledger("")) {
    to.save_ledger_day(day);
  }
  for (const auto& alias : from.load_aliases()) {
    to.save_alias(alias);
  }
  // D20: each index's snapshots and spans of either source.
  for (const auto& index : from.load_member_indices()) {
    for (const auto day : from.load_snapshot_days(index)) {
      to.save_snapshot(index, day, from.load_snapshot(index, day));
    }
    for (const auto source : {MemberSource::tushare, MemberSource::import}) {
      to.save_member_spans(index, source, from.load_member_spans(index, source));
    }
  }
}

} // namespace ashare::store
