#include "core/store/sqlite_bar_store.hpp"

#include "core/store/schema.hpp"
#include "core/store/stored_date.hpp"
#include "core/store/stored_kind.hpp"
#include "core/store/stored_number.hpp"

#include <array>
#include <memory>
#include <sqlite3.h>
#include <unordered_map>

namespace ashare::store {
namespace {

using domain::Date;

SymbolInfo read_symbol(SQLite::Statement& statement) {
  return SymbolInfo{statement.getColumn(0).getString(),
                    stored_date(statement.getColumn(1).getInt64()),
                    stored_date(statement.getColumn(2).getInt64()),
                    statement.getColumn(3).getInt64(),
                    statement.getColumn(4).getDouble(),
                    statement.getColumn(5).getString(),
                    statement.getColumn(6).getString(),
                    statement.getColumn(7).getInt() != 0,
                    stored_kind(statement.getColumn(8).isNull()
                                  ? std::nullopt
                                  : std::optional(statement.getColumn(8).getString()))};
}

// Read a row of (trade_date, open, high, low, close, volume, turnover, change_pct, factor).
domain::Bar read_bar(SQLite::Statement& statement) {
  return domain::Bar{stored_date(statement.getColumn(0).getInt64()),
                     read_number(statement.getColumn(1)),
                     read_number(statement.getColumn(2)),
                     read_number(statement.getColumn(3)),
                     read_number(statement.getColumn(4)),
                     statement.getColumn(5).getInt64(),
                     read_number(statement.getColumn(6)),
                     read_number(statement.getColumn(7)),
                     read_number(statement.getColumn(8))};
}

// D20: bind the kind of `symbol` by its code as `index`, a summary's kind when no listing names it.
void bind_code_kind(SQLite::Statement& statement, int index, const std::string& symbol) {
  if (const auto kind = code_kind_text(symbol)) {
    statement.bind(index, *kind);
  } else {
    statement.bind(index);
  }
}

// D20: a symbol's kind as its summary holds it: its listing's, else its code's (bound as ?2).
#define ASHARE_SQLITE_SUMMARY_KIND "coalesce((SELECT kind FROM listings WHERE symbol = ?1), ?2)"

// The bars table keys rows by symbol id (schema 3); statements name the symbol as ?1.
#define ASHARE_SYMBOL_ID "(SELECT id FROM symbol_ids WHERE symbol = ?1)"
constexpr const char* k_bar_columns =
  "SELECT trade_date, open, high, low, close, volume, turnover, change_pct, factor FROM bars ";

constexpr const char* k_symbol_columns =
  "SELECT s.symbol, s.first_date, s.last_date, s.bar_count, s.latest_factor, "
  "coalesce(o.source, ''), coalesce(o.factor_origin, ''), coalesce(o.adjusted, 0), s.kind "
  "FROM symbols s LEFT JOIN symbol_sources o ON o.symbol = s.symbol ";

std::string series_sql(const char* column) {
  return std::string("SELECT trade_date, ") + column
         + ", factor FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID " ORDER BY trade_date";
}

} // namespace

// A statement prepared on its first use (a one-shot command uses two or three of them), then
// kept for the connection's life.
class LazyStatement {
public:
  LazyStatement(SQLite::Database& db, std::string sql) : m_db(db), m_sql(std::move(sql)) {}
  SQLite::Statement& get() {
    if (!m_statement) {
      m_statement.emplace(m_db, m_sql);
    }
    return *m_statement;
  }

private:
  SQLite::Database& m_db;
  std::string m_sql;
  std::optional<SQLite::Statement> m_statement;
};

// Prepared once per connection: the server's hot path never re-parses SQL.
struct SqliteBarStore::Statements {
  explicit Statements(SQLite::Database& db)
    : generation(db, "SELECT value FROM meta WHERE key = 'generation'"),
      meta(db, "SELECT key, value FROM meta"),
      symbols(db, std::string(k_symbol_columns) + "ORDER BY s.symbol"),
      symbol(db, std::string(k_symbol_columns) + "WHERE s.symbol = ?1"),
      bars_asc(db, std::string(k_bar_columns)
                     + "WHERE symbol_id = " ASHARE_SYMBOL_ID " AND trade_date BETWEEN ?2 AND ?3 "
                       "ORDER BY trade_date ASC LIMIT ?4"),
      bars_desc(db, std::string(k_bar_columns)
                      + "WHERE symbol_id = " ASHARE_SYMBOL_ID " AND trade_date BETWEEN ?2 AND ?3 "
                        "ORDER BY trade_date DESC LIMIT ?4"),
      series{LazyStatement(db, series_sql("open")), LazyStatement(db, series_sql("high")),
             LazyStatement(db, series_sql("low")), LazyStatement(db, series_sql("close"))},
      begin(db, "BEGIN"),
      commit(db, "COMMIT") {}

  LazyStatement generation;
  LazyStatement meta;
  LazyStatement symbols;
  LazyStatement symbol;
  LazyStatement bars_asc;
  LazyStatement bars_desc;
  std::array<LazyStatement, 4> series; // by PriceField
  LazyStatement begin;
  LazyStatement commit;
  std::optional<SQLite::Statement> upsert; // prepared on first use: readers never need it
  std::optional<SQLite::Statement> insert;
  std::optional<SQLite::Statement> stage_pre_close; // and its temporary table made on first use
  std::optional<SQLite::Statement> save_factor;
  std::optional<SQLite::Statement> mark_derived;
  StatementCache reused; // ReusedStatement's
};

SqliteBarStore::SqliteBarStore(const std::filesystem::path& path)
  : m_db(open_database(path, StoreKind::data)),
    m_statements(std::make_unique<Statements>(m_db)),
    m_sql(m_db),
    m_market(m_sql) {}

SqliteBarStore::~SqliteBarStore() = default;

std::int64_t SqliteBarStore::load_generation() {
  auto& statement = m_statements->generation.get();
  statement.reset();
  const std::int64_t generation =
    statement.executeStep() ? std::stoll(statement.getColumn(0).getString()) : 0;
  statement.reset(); // a statement left on a row would pin this connection's read snapshot
  return generation;
}

DatasetInfo SqliteBarStore::load_dataset_info() {
  DatasetInfo info;
  auto& statement = m_statements->meta.get();
  statement.reset();
  while (statement.executeStep()) {
    add_meta_row(info, statement.getColumn(0).getString(), statement.getColumn(1).getString());
  }
  return info;
}

std::vector<SymbolInfo> SqliteBarStore::load_symbols() {
  std::vector<SymbolInfo> out;
  auto& statement = m_statements->symbols.get();
  statement.reset();
  while (statement.executeStep()) {
    out.push_back(read_symbol(statement));
  }
  return out;
}

std::optional<SymbolInfo> SqliteBarStore::find_symbol(const std::string& symbol) {
  auto& statement = m_statements->symbol.get();
  statement.reset();
  statement.bind(1, symbol);
  if (!statement.executeStep()) {
    return std::nullopt;
  }
  auto info = read_symbol(statement);
  statement.reset(); // as in load_generation
  return info;
}

std::vector<domain::Bar> SqliteBarStore::load_bars(const std::string& symbol,
                                             Date from,
                                             Date to,
                                             domain::SortOrder order,
                                             std::int64_t limit) {
  auto& statement =
    order == domain::SortOrder::asc ? m_statements->bars_asc.get() : m_statements->bars_desc.get();
  statement.reset();
  statement.bindNoCopy(1, symbol);
  statement.bind(2, static_cast<std::int64_t>(from.yyyymmdd()));
  statement.bind(3, static_cast<std::int64_t>(to.yyyymmdd()));
  statement.bind(4, static_cast<std::int64_t>(limit));
  std::vector<domain::Bar> bars;
  while (statement.executeStep()) {
    bars.push_back(read_bar(statement));
  }
  statement.reset(); // release the read snapshot promptly when not inside a ReadTransaction
  return bars;
}

PriceSeries SqliteBarStore::load_price_series(const std::string& symbol, PriceField field) {
  auto& statement = m_statements->series[static_cast<std::size_t>(field)].get();
  statement.reset();
  statement.bindNoCopy(1, symbol);
  PriceSeries series;
  while (statement.executeStep()) {
    series.dates.push_back(stored_date(statement.getColumn(0).getInt64()));
    series.prices.push_back(read_number(statement.getColumn(1)));
    series.factors.push_back(read_number(statement.getColumn(2)));
  }
  statement.reset();
  return series;
}

std::vector<Date> SqliteBarStore::load_derived_dates(const std::string& symbol) {
  SQLite::Statement select(m_db, "SELECT trade_date FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID
                                 " AND change_pct_derived = 1 ORDER BY trade_date");
  select.bind(1, symbol);
  std::vector<Date> dates;
  while (select.executeStep()) {
    dates.push_back(stored_date(select.getColumn(0).getInt64()));
  }
  return dates;
}

void SqliteBarStore::begin_read() {
  auto& begin = m_statements->begin.get();
  begin.reset();
  begin.exec();
}

void SqliteBarStore::end_read() {
  // A read transaction has nothing to lose; ending it can only fail if the connection is broken.
  auto& commit = m_statements->commit.get();
  commit.reset();
  if (commit.tryExecuteStep() != SQLITE_DONE) {
    m_db.tryExec("ROLLBACK");
  }
}

StatementCache& SqliteBarStore::statement_cache() {
  return m_statements->reused;
}

std::int64_t SqliteBarStore::symbol_id(const std::string& symbol) {
  if (const auto known = m_symbol_ids.find(symbol); known != m_symbol_ids.end()) {
    return known->second;
  }
  ReusedStatement insert(m_statements->reused, m_db, "INSERT INTO symbol_ids(symbol) VALUES (?1) "
                                 "ON CONFLICT(symbol) DO NOTHING");
  insert->bind(1, symbol);
  insert->exec();
  ReusedStatement select(m_statements->reused, m_db, "SELECT id FROM symbol_ids WHERE symbol = ?1");
  select->bind(1, symbol);
  select->executeStep();
  const std::int64_t id = select->getColumn(0).getInt64();
  m_symbol_ids.emplace(symbol, id);
  return id;
}

void SqliteBarStore::upsert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) {
  auto& upsert = m_statements->upsert;
  if (!upsert) {
    upsert.emplace(
    m_db,
    "INSERT INTO bars(symbol_id, trade_date, open, high, low, close, volume, turnover, change_pct, "
    "change_pct_derived, factor) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
    "ON CONFLICT(symbol_id, trade_date) DO UPDATE SET open = excluded.open, high = excluded.high, "
    "low = excluded.low, close = excluded.close, volume = excluded.volume, "
    "turnover = excluded.turnover, change_pct = excluded.change_pct, "
    "change_pct_derived = excluded.change_pct_derived, factor = excluded.factor");
  }
  write_bar(*upsert, symbol, bar, change_pct_derived);
}

void SqliteBarStore::insert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) {
  auto& insert = m_statements->insert;
  if (!insert) {
    // No conflict clause: SQLite finds the key's place once instead of checking it first.
    insert.emplace(
    m_db,
    "INSERT INTO bars(symbol_id, trade_date, open, high, low, close, volume, turnover, change_pct, "
    "change_pct_derived, factor) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  }
  write_bar(*insert, symbol, bar, change_pct_derived);
}

void SqliteBarStore::write_bar(SQLite::Statement& statement,
                         const std::string& symbol,
                         const domain::Bar& bar,
                         bool change_pct_derived) {
  statement.reset();
  statement.bind(1, symbol_id(symbol));
  statement.bind(2, static_cast<std::int64_t>(bar.trade_date.yyyymmdd()));
  bind_number(statement, 3, bar.open);
  bind_number(statement, 4, bar.high);
  bind_number(statement, 5, bar.low);
  bind_number(statement, 6, bar.close);
  statement.bind(7, static_cast<std::int64_t>(bar.volume));
  bind_number(statement, 8, bar.turnover);
  bind_number(statement, 9, bar.change_pct);
  statement.bind(10, change_pct_derived ? 1 : 0);
  bind_number(statement, 11, bar.factor);
  statement.exec();
}

bool SqliteBarStore::has_bars(const std::string& symbol) {
  ReusedStatement statement(m_statements->reused, m_db, "SELECT EXISTS(SELECT 1 FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID ")");
  statement->bind(1, symbol);
  statement->executeStep();
  return statement->getColumn(0).getInt() != 0;
}

std::optional<domain::Bar> SqliteBarStore::find_bar_before(const std::string& symbol, Date date) {
  ReusedStatement statement(m_statements->reused, m_db, std::string(k_bar_columns)
                                      + "WHERE symbol_id = " ASHARE_SYMBOL_ID
                                        " AND trade_date < ?2 ORDER BY trade_date DESC LIMIT 1");
  statement->bind(1, symbol);
  statement->bind(2, static_cast<std::int64_t>(date.yyyymmdd()));
  if (!statement->executeStep()) {
    return std::nullopt;
  }
  return read_bar(*statement);
}

bool SqliteBarStore::has_bars_outside(const std::string& symbol, Date from, Date to) {
  ReusedStatement statement(m_statements->reused, m_db, "SELECT EXISTS(SELECT 1 FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID
                                    " AND (trade_date < ?2 OR trade_date > ?3))");
  statement->bind(1, symbol);
  statement->bind(2, static_cast<std::int64_t>(from.yyyymmdd()));
  statement->bind(3, static_cast<std::int64_t>(to.yyyymmdd()));
  statement->executeStep();
  return statement->getColumn(0).getInt() != 0;
}

void SqliteBarStore::save_symbol_source(const std::string& symbol, const SymbolSource& source) {
  ReusedStatement statement(m_statements->reused, m_db, "INSERT INTO symbol_sources(symbol, source, factor_origin, adjusted) "
          "VALUES (?1, ?2, ?3, ?4) ON CONFLICT(symbol) DO UPDATE SET source = excluded.source, "
          "factor_origin = excluded.factor_origin, adjusted = excluded.adjusted");
  statement->bind(1, symbol);
  statement->bind(2, source.source);
  statement->bind(3, source.factor_origin);
  statement->bind(4, source.adjusted ? 1 : 0);
  statement->exec();
}

bool SqliteBarStore::has_non_unit_factor(const std::string& symbol) {
  ReusedStatement statement(m_statements->reused, m_db, "SELECT EXISTS(SELECT 1 FROM bars WHERE symbol_id = "
                                    ASHARE_SYMBOL_ID " AND " + decoded_sql("factor") + " <> 1)");
  statement->bind(1, symbol);
  statement->executeStep();
  return statement->getColumn(0).getInt() != 0;
}

void SqliteBarStore::recompute_change_pct(const std::string& symbol) {
  // The whole history: from before the first stored date (1970) to after the last.
  recompute_change_pct(symbol, Date{}, *Date::from_yyyymmdd(99991231));
}

void SqliteBarStore::recompute_change_pct(const std::string& symbol, Date from, Date to) {
  const auto before = find_bar_before(symbol, from);
  ReusedStatement select(m_statements->reused, m_db, "SELECT trade_date, close, factor, change_pct_derived FROM bars "
                           "WHERE symbol_id = " ASHARE_SYMBOL_ID " AND trade_date >= ?2 "
                           "ORDER BY trade_date");
  ReusedStatement update(m_statements->reused, m_db, "UPDATE bars SET change_pct = ?3 WHERE symbol_id = ?1 AND trade_date = ?2");
  select->bind(1, symbol);
  select->bind(2, static_cast<std::int64_t>(from.yyyymmdd()));
  const std::int64_t id = symbol_id(symbol);
  const auto last = static_cast<std::int64_t>(to.yyyymmdd());
  bool first = !before;
  double previous_close = before ? before->close : 0;
  double previous_factor = before ? before->factor : 0;
  while (select->executeStep()) {
    const std::int64_t date = select->getColumn(0).getInt64();
    const double close = read_number(select->getColumn(1));
    const double factor = read_number(select->getColumn(2));
    if (select->getColumn(3).getInt() != 0) {
      const double change =
        first ? 0.0 : domain::derived_change_pct(close, factor, previous_close, previous_factor);
      update->reset();
      update->bind(1, id);
      update->bind(2, date);
      bind_number(*update, 3, change);
      update->exec();
    }
    previous_close = close;
    previous_factor = factor;
    first = false;
    if (date > last) {
      break; // the first bar after `to` was the last that depends on a written one
    }
  }
}

void SqliteBarStore::save_factor(const std::string& symbol, Date date, double factor) {
  auto& update = m_statements->save_factor;
  if (!update) {
    update.emplace(m_db, "UPDATE bars SET factor = ?3 WHERE symbol_id = ?1 AND trade_date = ?2");
  }
  update->reset();
  update->bind(1, symbol_id(symbol));
  update->bind(2, static_cast<std::int64_t>(date.yyyymmdd()));
  bind_number(*update, 3, factor);
  update->exec();
}

void SqliteBarStore::mark_change_pct_derived(const std::string& symbol, Date date) {
  auto& update = m_statements->mark_derived;
  if (!update) {
    update.emplace(
      m_db, "UPDATE bars SET change_pct_derived = 1 WHERE symbol_id = ?1 AND trade_date = ?2");
  }
  update->reset();
  update->bind(1, symbol_id(symbol));
  update->bind(2, static_cast<std::int64_t>(date.yyyymmdd()));
  update->exec();
}

void SqliteBarStore::stage_pre_close(const std::string& symbol, Date date, double pre_close) {
  auto& stage = m_statements->stage_pre_close;
  if (!stage) {
    // TEMP: private to this connection, gone when it closes; SQLite spills it to a temporary
    // file beyond its page cache, so a large file does not grow memory.
    m_db.exec("CREATE TEMP TABLE IF NOT EXISTS staged_pre_close("
              "symbol TEXT NOT NULL, trade_date INTEGER NOT NULL, pre_close REAL NOT NULL, "
              "PRIMARY KEY(symbol, trade_date)) WITHOUT ROWID");
    stage.emplace(m_db, "INSERT OR IGNORE INTO staged_pre_close VALUES (?1, ?2, ?3)");
  }
  stage->reset();
  stage->bind(1, symbol);
  stage->bind(2, static_cast<std::int64_t>(date.yyyymmdd()));
  stage->bind(3, pre_close);
  stage->exec();
}

std::vector<std::pair<Date, double>> SqliteBarStore::load_staged_pre_close(const std::string& symbol) {
  std::vector<std::pair<Date, double>> out;
  if (!m_statements->stage_pre_close) {
    return out;
  }
  SQLite::Statement select(m_db, "SELECT trade_date, pre_close FROM staged_pre_close "
                                 "WHERE symbol = ?1 ORDER BY trade_date");
  select.bind(1, symbol);
  while (select.executeStep()) {
    out.emplace_back(stored_date(select.getColumn(0).getInt64()), select.getColumn(1).getDouble());
  }
  return out;
}

void SqliteBarStore::clear_staged_pre_close() {
  if (m_statements->stage_pre_close) {
    m_db.exec("DELETE FROM staged_pre_close");
  }
}

std::int64_t SqliteBarStore::delete_bars(const std::string& symbol, Date from, Date to) {
  SQLite::Statement statement(
    m_db, "DELETE FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID
          " AND trade_date BETWEEN ?2 AND ?3");
  statement.bind(1, symbol);
  statement.bind(2, static_cast<std::int64_t>(from.yyyymmdd()));
  statement.bind(3, static_cast<std::int64_t>(to.yyyymmdd()));
  return statement.exec();
}

void SqliteBarStore::refresh_symbol(const std::string& symbol) {
  ReusedStatement remove(m_statements->reused, m_db, "DELETE FROM symbols WHERE symbol = ?1");
  remove->bind(1, symbol);
  remove->exec();
  ReusedStatement insert(m_statements->reused, m_db, "INSERT INTO symbols(symbol, first_date, last_date, bar_count, latest_factor, kind) "
    "SELECT ?1, min(trade_date), max(trade_date), count(*), (SELECT " + decoded_sql("factor")
      + " FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID " ORDER BY trade_date DESC LIMIT 1), "
        ASHARE_SQLITE_SUMMARY_KIND " FROM bars WHERE symbol_id = " ASHARE_SYMBOL_ID " HAVING count(*) > 0");
  insert->bind(1, symbol);
  bind_code_kind(*insert, 2, symbol);
  if (insert->exec() == 0) {
    ReusedStatement forget(m_statements->reused, m_db, "DELETE FROM symbol_sources WHERE symbol = ?1");
    forget->bind(1, symbol);
    forget->exec();
  }
}

void SqliteBarStore::save_symbol_summary(const std::string& symbol,
                                   Date first,
                                   Date last,
                                   std::int64_t count,
                                   double latest_factor) {
  ReusedStatement insert(m_statements->reused, m_db, "INSERT OR REPLACE INTO symbols(symbol, first_date, last_date, bar_count, "
                           "latest_factor, kind) VALUES (?1, ?3, ?4, ?5, ?6, " ASHARE_SQLITE_SUMMARY_KIND ")");
  insert->bind(1, symbol);
  bind_code_kind(*insert, 2, symbol);
  insert->bind(3, static_cast<std::int64_t>(first.yyyymmdd()));
  insert->bind(4, static_cast<std::int64_t>(last.yyyymmdd()));
  insert->bind(5, count);
  insert->bind(6, latest_factor);
  insert->exec();
}

void SqliteBarStore::finish_change(const std::string& source) {
  if (!source.empty()) {
    SQLite::Statement statement(
      m_db, "INSERT INTO meta(key, value) VALUES ('source', ?1) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    statement.bind(1, source);
    statement.exec();
  }
  // D18: as_of is the latest whole-market ledger day when there is one, else D8's latest bar;
  // D20: the stocks' ledger day.
  m_db.exec("DELETE FROM meta WHERE key = 'as_of'");
  m_db.exec("INSERT INTO meta(key, value) SELECT 'as_of', CAST(day AS TEXT) FROM (SELECT coalesce("
            "(SELECT max(trade_date) FROM fetch_ledger WHERE symbol = '' AND kind = 'stock'), "
            "(SELECT max(last_date) FROM symbols)) AS day) WHERE day IS NOT NULL");
  m_db.exec("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) "
            "WHERE key = 'generation'");
}

void SqliteBarStore::begin_write() {
  m_db.exec("BEGIN IMMEDIATE");
  // The ids known stay valid: a symbol's id is never deleted or changed (ids another process
  // added since are looked up when first needed).
}

void SqliteBarStore::rollback_write() {
  m_db.tryExec("ROLLBACK");
  m_symbol_ids.clear();                  // ids added by this transaction are gone
  m_statements->stage_pre_close.reset(); // and so is a staging table it made
}

void SqliteBarStore::commit_write() {
  m_db.exec("COMMIT");
  store::announce_change(m_db, m_changes); // after the commit: a reader that sees it sees the data
}

} // namespace ashare::store
