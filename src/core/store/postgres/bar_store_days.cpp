// PostgresBarStore's D19 tables (the calendar, listings, suspensions, absence marks) and D18's
// fetch ledger, as the SQLite store keeps them. Each call flushes the queued bars first, so its
// statement sees them (and the ledger, which as_of reads, lands in the same transaction).
#include "core/store/calendar_days.hpp"
#include "core/store/postgres/bar_store.hpp"
#include "core/store/stored_date.hpp"

namespace ashare::store::postgres {
namespace {

using domain::Date;

Param date_param(Date date) { return Param(static_cast<std::int64_t>(date.yyyymmdd())); }

std::optional<Date> optional_date(const Result& rows, int row, int column) {
  const auto value = rows.optional_int64(row, column);
  return value ? std::optional(stored_date(*value)) : std::nullopt;
}

Param optional_date_param(std::optional<Date> date) {
  return date ? date_param(*date) : Param(std::nullopt);
}

} // namespace

std::vector<Date> PostgresBarStore::load_open_days(Date from, Date to) {
  flush();
  const auto rows = m_connection.run("calendar_open",
                                     "SELECT trade_date FROM calendar WHERE trade_date "
                                     "BETWEEN $1 AND $2 AND is_open ORDER BY trade_date",
                                     {date_param(from), date_param(to)});
  std::vector<Date> days;
  days.reserve(static_cast<std::size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    days.push_back(stored_date(rows.int64(row, 0)));
  }
  return days;
}

std::optional<std::pair<Date, Date>> PostgresBarStore::load_calendar_span() {
  flush();
  const auto rows = m_connection.run(
    "calendar_span", "SELECT min(trade_date), max(trade_date) FROM calendar", {});
  if (rows.is_null(0, 0)) {
    return std::nullopt;
  }
  return std::pair{stored_date(rows.int64(0, 0)), stored_date(rows.int64(0, 1))};
}

std::vector<Listing> PostgresBarStore::load_listings() {
  flush();
  const auto rows = m_connection.run(
    "listings", "SELECT symbol, name, list_date, delist_date, status FROM listings "
                "ORDER BY symbol COLLATE \"C\"", {});
  std::vector<Listing> out;
  for (int row = 0; row < rows.rows(); ++row) {
    const auto status = rows.text(row, 4);
    out.push_back({std::string(rows.text(row, 0)), std::string(rows.text(row, 1)),
                   optional_date(rows, row, 2), optional_date(rows, row, 3),
                   status.empty() ? 'L' : status.front()});
  }
  return out;
}

std::vector<Date> PostgresBarStore::load_suspensions(const std::string& symbol) {
  flush();
  const auto rows = m_connection.run(
    "suspensions_of", "SELECT trade_date FROM suspensions WHERE symbol = $1 ORDER BY trade_date",
    {symbol});
  std::vector<Date> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back(stored_date(rows.int64(row, 0)));
  }
  return out;
}

std::vector<std::pair<std::string, Date>> PostgresBarStore::load_suspensions() {
  flush();
  const auto rows = m_connection.run(
    "suspensions_all",
    "SELECT symbol, trade_date FROM suspensions ORDER BY symbol COLLATE \"C\", trade_date", {});
  std::vector<std::pair<std::string, Date>> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.emplace_back(std::string(rows.text(row, 0)), stored_date(rows.int64(row, 1)));
  }
  return out;
}

std::vector<Absence> PostgresBarStore::load_absences(const std::string& symbol) {
  flush();
  const auto rows = m_connection.run(
    "absences", "SELECT symbol, trade_date, provider FROM absences WHERE $1 = '' OR symbol = $1 "
                "ORDER BY symbol COLLATE \"C\", trade_date, provider COLLATE \"C\"",
    {symbol});
  std::vector<Absence> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back({std::string(rows.text(row, 0)), stored_date(rows.int64(row, 1)),
                   std::string(rows.text(row, 2))});
  }
  return out;
}

std::vector<LedgerDay> PostgresBarStore::load_ledger(const std::string& provider) {
  flush();
  const auto rows = m_connection.run(
    "ledger", "SELECT provider, trade_date, symbol, rows FROM fetch_ledger "
              "WHERE $1 = '' OR provider = $1 "
              "ORDER BY trade_date, symbol COLLATE \"C\", provider COLLATE \"C\"",
    {provider});
  std::vector<LedgerDay> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back({std::string(rows.text(row, 0)), stored_date(rows.int64(row, 1)),
                   std::string(rows.text(row, 2)), rows.int64(row, 3)});
  }
  return out;
}

void PostgresBarStore::save_calendar(Date from, Date to, const std::vector<Date>& open_days) {
  flush();
  std::string dates = "{";
  std::string open = "{";
  for (const auto& day : calendar_days(from, to, open_days)) {
    dates += (dates.size() > 1 ? "," : "") + std::to_string(day.yyyymmdd);
    open += open.size() > 1 ? "," : "";
    open += day.is_open ? "t" : "f";
  }
  m_connection.run("calendar_clear", "DELETE FROM calendar WHERE trade_date BETWEEN $1 AND $2",
                   {date_param(from), date_param(to)});
  m_connection.run("calendar_write",
                   "INSERT INTO calendar(trade_date, is_open) "
                   "SELECT * FROM unnest($1::integer[], $2::boolean[])",
                   {dates + "}", open + "}"});
}

void PostgresBarStore::save_listing(const Listing& listing) {
  flush();
  m_connection.run("listing_write",
                   "INSERT INTO listings(symbol, name, list_date, delist_date, status) "
                   "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (symbol) DO UPDATE SET "
                   "name = excluded.name, list_date = excluded.list_date, "
                   "delist_date = excluded.delist_date, status = excluded.status",
                   {listing.symbol, listing.name, optional_date_param(listing.list_date),
                    optional_date_param(listing.delist_date), std::string(1, listing.status)});
}

void PostgresBarStore::save_suspension(const std::string& symbol, Date date) {
  flush();
  m_connection.run("suspension_write",
                   "INSERT INTO suspensions(symbol, trade_date) VALUES ($1, $2) "
                   "ON CONFLICT DO NOTHING",
                   {symbol, date_param(date)});
}

void PostgresBarStore::save_absence(const Absence& absence) {
  flush();
  m_connection.run("absence_write",
                   "INSERT INTO absences(symbol, trade_date, provider) VALUES ($1, $2, $3) "
                   "ON CONFLICT DO NOTHING",
                   {absence.symbol, date_param(absence.trade_date), absence.provider});
}

void PostgresBarStore::delete_absence(const std::string& symbol, Date date) {
  flush();
  m_connection.run("absence_delete", "DELETE FROM absences WHERE symbol = $1 AND trade_date = $2",
                   {symbol, date_param(date)});
}

void PostgresBarStore::save_ledger_day(const LedgerDay& day) {
  flush();
  // D18: finish_change() reads the ledger for as_of, so a fetch's day counts at its commit.
  m_connection.run("ledger_write",
                   "INSERT INTO fetch_ledger(provider, trade_date, symbol, rows) "
                   "VALUES ($1, $2, $3, $4) ON CONFLICT (provider, trade_date, symbol) "
                   "DO UPDATE SET rows = excluded.rows",
                   {day.provider, date_param(day.trade_date), day.symbol, day.rows});
}

void PostgresBarStore::forget_symbol_ledger_days(const std::string& provider, Date date) {
  flush();
  m_connection.run("ledger_forget_symbols",
                   "DELETE FROM fetch_ledger WHERE provider = $1 AND trade_date = $2 AND symbol <> ''",
                   {provider, date_param(date)});
}

std::vector<CodeAlias> PostgresBarStore::load_aliases() {
  flush();
  const auto rows = m_connection.run(
    "aliases", "SELECT old_symbol, new_symbol FROM code_aliases ORDER BY old_symbol COLLATE \"C\"", {});
  std::vector<CodeAlias> out;
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back({std::string(rows.text(row, 0)), std::string(rows.text(row, 1))});
  }
  return out;
}

void PostgresBarStore::save_alias(const CodeAlias& alias) {
  flush();
  m_connection.run("alias_forget", "DELETE FROM code_aliases WHERE old_symbol = $1 OR new_symbol = $2",
                   {alias.old_symbol, alias.new_symbol});
  m_connection.run("alias_write", "INSERT INTO code_aliases(old_symbol, new_symbol) VALUES ($1, $2)",
                   {alias.old_symbol, alias.new_symbol});
}

} // namespace ashare::store::postgres
