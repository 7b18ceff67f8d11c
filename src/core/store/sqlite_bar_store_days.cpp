// SqliteBarStore's D19 tables (the calendar, listings, suspensions, absence marks) and D18's
// fetch ledger: plain statements, prepared per call (a fetch or a report makes few of them).
#include "core/store/calendar_days.hpp"
#include "core/store/sqlite_bar_store.hpp"
#include "core/store/stored_date.hpp"

namespace ashare::store {
namespace {

using domain::Date;

std::int64_t key(Date date) { return date.yyyymmdd(); }

std::optional<Date> optional_date(const SQLite::Column& column) {
  if (column.isNull()) {
    return std::nullopt;
  }
  return stored_date(column.getInt64());
}

void bind_optional_date(SQLite::Statement& statement, int index, std::optional<Date> date) {
  if (date) {
    statement.bind(index, key(*date));
  } else {
    statement.bind(index);
  }
}

} // namespace

std::vector<Date> SqliteBarStore::load_open_days(Date from, Date to) {
  SQLite::Statement select(m_db, "SELECT trade_date FROM calendar "
                                 "WHERE trade_date BETWEEN ?1 AND ?2 AND is_open = 1 "
                                 "ORDER BY trade_date");
  select.bind(1, key(from));
  select.bind(2, key(to));
  std::vector<Date> days;
  while (select.executeStep()) {
    days.push_back(stored_date(select.getColumn(0).getInt64()));
  }
  return days;
}

std::optional<std::pair<Date, Date>> SqliteBarStore::load_calendar_span() {
  SQLite::Statement select(m_db, "SELECT min(trade_date), max(trade_date) FROM calendar");
  select.executeStep();
  if (select.getColumn(0).isNull()) {
    return std::nullopt;
  }
  return std::pair{stored_date(select.getColumn(0).getInt64()),
                   stored_date(select.getColumn(1).getInt64())};
}

std::vector<Listing> SqliteBarStore::load_listings() {
  SQLite::Statement select(m_db, "SELECT symbol, name, list_date, delist_date, status "
                                 "FROM listings ORDER BY symbol");
  std::vector<Listing> out;
  while (select.executeStep()) {
    const auto status = select.getColumn(4).getString();
    out.push_back({select.getColumn(0).getString(), select.getColumn(1).getString(),
                   optional_date(select.getColumn(2)), optional_date(select.getColumn(3)),
                   status.empty() ? 'L' : status.front()});
  }
  return out;
}

std::vector<Date> SqliteBarStore::load_suspensions(const std::string& symbol) {
  SQLite::Statement select(
    m_db, "SELECT trade_date FROM suspensions WHERE symbol = ?1 ORDER BY trade_date");
  select.bind(1, symbol);
  std::vector<Date> out;
  while (select.executeStep()) {
    out.push_back(stored_date(select.getColumn(0).getInt64()));
  }
  return out;
}

std::vector<std::pair<std::string, Date>> SqliteBarStore::load_suspensions() {
  SQLite::Statement select(m_db, "SELECT symbol, trade_date FROM suspensions "
                                 "ORDER BY symbol, trade_date");
  std::vector<std::pair<std::string, Date>> out;
  while (select.executeStep()) {
    out.emplace_back(select.getColumn(0).getString(), stored_date(select.getColumn(1).getInt64()));
  }
  return out;
}

std::vector<Absence> SqliteBarStore::load_absences(const std::string& symbol) {
  SQLite::Statement select(m_db, "SELECT symbol, trade_date, provider FROM absences "
                                 "WHERE ?1 = '' OR symbol = ?1 "
                                 "ORDER BY symbol, trade_date, provider");
  select.bind(1, symbol);
  std::vector<Absence> out;
  while (select.executeStep()) {
    out.push_back({select.getColumn(0).getString(), stored_date(select.getColumn(1).getInt64()),
                   select.getColumn(2).getString()});
  }
  return out;
}

std::vector<LedgerDay> SqliteBarStore::load_ledger(const std::string& provider) {
  SQLite::Statement select(m_db, "SELECT provider, trade_date, symbol, rows FROM fetch_ledger "
                                 "WHERE ?1 = '' OR provider = ?1 "
                                 "ORDER BY trade_date, symbol, provider");
  select.bind(1, provider);
  std::vector<LedgerDay> out;
  while (select.executeStep()) {
    out.push_back({select.getColumn(0).getString(), stored_date(select.getColumn(1).getInt64()),
                   select.getColumn(2).getString(), select.getColumn(3).getInt64()});
  }
  return out;
}

void SqliteBarStore::save_calendar(Date from, Date to, const std::vector<Date>& open_days) {
  SQLite::Statement remove(m_db, "DELETE FROM calendar WHERE trade_date BETWEEN ?1 AND ?2");
  remove.bind(1, key(from));
  remove.bind(2, key(to));
  remove.exec();
  SQLite::Statement insert(m_db, "INSERT INTO calendar(trade_date, is_open) VALUES (?1, ?2)");
  for (const auto& day : calendar_days(from, to, open_days)) {
    insert.reset();
    insert.bind(1, day.yyyymmdd);
    insert.bind(2, day.is_open ? 1 : 0);
    insert.exec();
  }
}

void SqliteBarStore::save_listing(const Listing& listing) {
  // A whole market's listings at a time: prepared once.
  ReusedStatement upsert(statement_cache(), m_db,
                         "INSERT OR REPLACE INTO listings(symbol, name, list_date, delist_date, status) "
                         "VALUES (?1, ?2, ?3, ?4, ?5)");
  upsert->bind(1, listing.symbol);
  upsert->bind(2, listing.name);
  bind_optional_date(*upsert, 3, listing.list_date);
  bind_optional_date(*upsert, 4, listing.delist_date);
  upsert->bind(5, std::string(1, listing.status));
  upsert->exec();
}

void SqliteBarStore::save_suspension(const std::string& symbol, Date date) {
  ReusedStatement insert(statement_cache(), m_db,
                         "INSERT OR IGNORE INTO suspensions(symbol, trade_date) VALUES (?1, ?2)");
  insert->bind(1, symbol);
  insert->bind(2, key(date));
  insert->exec();
}

void SqliteBarStore::save_absence(const Absence& absence) {
  SQLite::Statement insert(m_db, "INSERT OR IGNORE INTO absences(symbol, trade_date, provider) "
                                 "VALUES (?1, ?2, ?3)");
  insert.bind(1, absence.symbol);
  insert.bind(2, key(absence.trade_date));
  insert.bind(3, absence.provider);
  insert.exec();
}

void SqliteBarStore::delete_absence(const std::string& symbol, Date date) {
  SQLite::Statement remove(m_db, "DELETE FROM absences WHERE symbol = ?1 AND trade_date = ?2");
  remove.bind(1, symbol);
  remove.bind(2, key(date));
  remove.exec();
}

void SqliteBarStore::save_ledger_day(const LedgerDay& day) {
  // D18: finish_change() reads the ledger for as_of, so a fetch's day counts at its commit.
  SQLite::Statement upsert(
    m_db, "INSERT OR REPLACE INTO fetch_ledger(provider, trade_date, symbol, rows) "
          "VALUES (?1, ?2, ?3, ?4)");
  upsert.bind(1, day.provider);
  upsert.bind(2, key(day.trade_date));
  upsert.bind(3, day.symbol);
  upsert.bind(4, day.rows);
  upsert.exec();
}

void SqliteBarStore::forget_symbol_ledger_days(const std::string& provider, Date date) {
  SQLite::Statement remove(m_db, "DELETE FROM fetch_ledger WHERE provider = ?1 AND trade_date = ?2 "
                                 "AND symbol <> ''");
  remove.bind(1, provider);
  remove.bind(2, key(date));
  remove.exec();
}

std::vector<CodeAlias> SqliteBarStore::load_aliases() {
  SQLite::Statement select(m_db, "SELECT old_symbol, new_symbol FROM code_aliases ORDER BY old_symbol");
  std::vector<CodeAlias> out;
  while (select.executeStep()) {
    out.push_back({select.getColumn(0).getString(), select.getColumn(1).getString()});
  }
  return out;
}

void SqliteBarStore::save_alias(const CodeAlias& alias) {
  SQLite::Statement remove(m_db, "DELETE FROM code_aliases WHERE old_symbol = ?1 OR new_symbol = ?2");
  remove.bind(1, alias.old_symbol);
  remove.bind(2, alias.new_symbol);
  remove.exec();
  SQLite::Statement insert(m_db, "INSERT INTO code_aliases(old_symbol, new_symbol) VALUES (?1, ?2)");
  insert.bind(1, alias.old_symbol);
  insert.bind(2, alias.new_symbol);
  insert.exec();
}

} // namespace ashare::store
