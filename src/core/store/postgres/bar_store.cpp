#include "core/store/postgres/bar_store.hpp"

#include "core/store/postgres/schema.hpp"
#include "core/store/stored_date.hpp"
#include "core/store/stored_kind.hpp"

#include <array>
#include <charconv>
#include <unordered_set>

namespace ashare::store::postgres {
namespace {

using domain::Date;

// D20: a symbol's kind as its summary holds it: its listing's, else its code's (bound as $2).
#define ASHARE_PG_SUMMARY_KIND "coalesce((SELECT kind FROM listings WHERE symbol = $1), $2::text)"

constexpr const char* k_bar_columns =
  "SELECT trade_date, open, high, low, close, volume, turnover, change_pct, factor FROM bars ";

constexpr const char* k_symbol_columns =
  "SELECT s.symbol, s.first_date, s.last_date, s.bar_count, s.latest_factor, "
  "coalesce(o.source, ''), coalesce(o.factor_origin, ''), coalesce(o.adjusted, false), s.kind "
  "FROM bar_symbols s LEFT JOIN bar_symbol_sources o ON o.symbol = s.symbol ";

// The advisory lock every write transaction holds until it ends: writers one at a time, as
// SQLite's BEGIN IMMEDIATE makes them (any number, the same in every build; not the schema's).
constexpr const char* k_write_lock = "SELECT pg_advisory_xact_lock(7305190012190002)";

// Return `value` as the shortest text that reads back exactly (std::to_chars), which PostgreSQL's
// double precision input reads bit for bit.
std::string number_text(double value) {
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  return std::string(buffer.data(), end);
}

Param date_param(Date date) { return Param(static_cast<std::int64_t>(date.yyyymmdd())); }

// Builds a PostgreSQL array literal ("{...}") one element at a time.
class ArrayText {
public:
  void add(std::string_view element) {
    m_text += m_text.size() > 1 ? "," : "";
    m_text += element;
  }
  // A text element, quoted (symbols never hold a quote or a backslash, but the literal is exact
  // whatever they hold).
  void add_quoted(std::string_view element) {
    std::string quoted = "\"";
    for (const char c : element) {
      if (c == '"' || c == '\\') {
        quoted += '\\';
      }
      quoted += c;
    }
    add(quoted + "\"");
  }
  std::string take() { return std::move(m_text) + "}"; }

private:
  std::string m_text = "{";
};

// Append `bar` of `symbol` to `out` as a row of COPY's text format: tab-separated, a backslash,
// tab or line break inside a value escaped.
void append_copy_row(std::string& out, std::string_view symbol, const domain::Bar& bar, bool derived) {
  for (const char c : symbol) {
    if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
      out += '\\';
      out += c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' : '\\';
    } else {
      out += c;
    }
  }
  for (const auto& field :
       {std::to_string(bar.trade_date.yyyymmdd()), number_text(bar.open), number_text(bar.high),
        number_text(bar.low), number_text(bar.close), std::to_string(bar.volume),
        number_text(bar.turnover), number_text(bar.change_pct), std::string(derived ? "t" : "f"),
        number_text(bar.factor)}) {
    out += '\t';
    out += field;
  }
  out += '\n';
}

SymbolInfo read_symbol(const Result& result, int row) {
  return SymbolInfo{std::string(result.text(row, 0)),
                    stored_date(result.int64(row, 1)),
                    stored_date(result.int64(row, 2)),
                    result.int64(row, 3),
                    result.float64(row, 4),
                    std::string(result.text(row, 5)),
                    std::string(result.text(row, 6)),
                    result.text(row, 7) == "t",
                    stored_kind(result.optional_text(row, 8))};
}

// Read a row of (trade_date, open, high, low, close, volume, turnover, change_pct, factor).
domain::Bar read_bar(const Result& result, int row) {
  return domain::Bar{stored_date(result.int64(row, 0)),
                     result.float64(row, 1),
                     result.float64(row, 2),
                     result.float64(row, 3),
                     result.float64(row, 4),
                     result.int64(row, 5),
                     result.float64(row, 6),
                     result.float64(row, 7),
                     result.float64(row, 8)};
}

} // namespace

PostgresBarStore::PostgresBarStore(const std::string& uri)
  : m_connection(uri), m_sql(m_connection, [this] { flush(); }), m_market(m_sql) {
  // Doubles as the shortest exact text, whatever the server's default (D12).
  m_connection.exec("SET extra_float_digits = 3");
  migrate(m_connection, SchemaKind::data);
}

PostgresBarStore::~PostgresBarStore() = default;

std::int64_t PostgresBarStore::load_generation() {
  flush();
  const auto row = m_connection.run(
    "bars_generation", "SELECT value::bigint FROM bars_meta WHERE key = 'generation'", {});
  return row.rows() == 1 ? row.int64(0, 0) : 0;
}

DatasetInfo PostgresBarStore::load_dataset_info() {
  flush();
  DatasetInfo info;
  const auto rows = m_connection.run("bars_meta", "SELECT key, value FROM bars_meta", {});
  for (int row = 0; row < rows.rows(); ++row) {
    add_meta_row(info, rows.text(row, 0), std::string(rows.text(row, 1)));
  }
  return info;
}

std::vector<SymbolInfo> PostgresBarStore::load_symbols() {
  flush();
  static const std::string sql = std::string(k_symbol_columns) + "ORDER BY s.symbol COLLATE \"C\"";
  const auto rows = m_connection.run("bars_symbols", sql.c_str(), {});
  std::vector<SymbolInfo> out;
  out.reserve(static_cast<std::size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    out.push_back(read_symbol(rows, row));
  }
  return out;
}

std::optional<SymbolInfo> PostgresBarStore::find_symbol(const std::string& symbol) {
  flush();
  static const std::string sql = std::string(k_symbol_columns) + "WHERE s.symbol = $1";
  const auto rows = m_connection.run("bars_symbol", sql.c_str(), {symbol});
  if (rows.rows() == 0) {
    return std::nullopt;
  }
  return read_symbol(rows, 0);
}

std::vector<domain::Bar> PostgresBarStore::load_bars(const std::string& symbol,
                                                     Date from,
                                                     Date to,
                                                     domain::SortOrder order,
                                                     std::int64_t limit) {
  flush();
  static const std::string asc =
    std::string(k_bar_columns)
    + "WHERE symbol = $1 AND trade_date BETWEEN $2 AND $3 ORDER BY trade_date ASC LIMIT $4";
  static const std::string desc =
    std::string(k_bar_columns)
    + "WHERE symbol = $1 AND trade_date BETWEEN $2 AND $3 ORDER BY trade_date DESC LIMIT $4";
  const bool ascending = order == domain::SortOrder::asc;
  const auto rows =
    m_connection.run(ascending ? "bars_asc" : "bars_desc", ascending ? asc.c_str() : desc.c_str(),
                     {symbol, date_param(from), date_param(to), limit});
  std::vector<domain::Bar> bars;
  bars.reserve(static_cast<std::size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    bars.push_back(read_bar(rows, row));
  }
  return bars;
}

std::optional<domain::Bar> PostgresBarStore::find_bar_before(const std::string& symbol, Date date) {
  flush();
  static const std::string sql =
    std::string(k_bar_columns)
    + "WHERE symbol = $1 AND trade_date < $2 ORDER BY trade_date DESC LIMIT 1";
  const auto rows = m_connection.run("bars_before", sql.c_str(), {symbol, date_param(date)});
  if (rows.rows() == 0) {
    return std::nullopt;
  }
  return read_bar(rows, 0);
}

bool PostgresBarStore::has_bars_outside(const std::string& symbol, Date from, Date to) {
  flush();
  const auto rows = m_connection.run(
    "bars_outside",
    "SELECT EXISTS(SELECT 1 FROM bars WHERE symbol = $1 AND (trade_date < $2 OR trade_date > $3))",
    {symbol, date_param(from), date_param(to)});
  return rows.text(0, 0) == "t";
}

PriceSeries PostgresBarStore::load_price_series(const std::string& symbol, PriceField field) {
  flush();
  static const auto sql_of = [](const char* column) {
    return std::string("SELECT trade_date, ") + column
           + ", factor FROM bars WHERE symbol = $1 ORDER BY trade_date";
  };
  static const std::array<std::string, 4> sql{sql_of("open"), sql_of("high"), sql_of("low"),
                                              sql_of("close")};
  static constexpr std::array<const char*, 4> names{"series_open", "series_high", "series_low",
                                                    "series_close"};
  const auto index = static_cast<std::size_t>(field);
  const auto rows = m_connection.run(names[index], sql[index].c_str(), {symbol});
  PriceSeries series;
  for (int row = 0; row < rows.rows(); ++row) {
    series.dates.push_back(stored_date(rows.int64(row, 0)));
    series.prices.push_back(rows.float64(row, 1));
    series.factors.push_back(rows.float64(row, 2));
  }
  return series;
}

std::vector<Date> PostgresBarStore::load_derived_dates(const std::string& symbol) {
  flush();
  const auto rows = m_connection.run(
    "bars_derived",
    "SELECT trade_date FROM bars WHERE symbol = $1 AND change_pct_derived ORDER BY trade_date",
    {symbol});
  std::vector<Date> dates;
  for (int row = 0; row < rows.rows(); ++row) {
    dates.push_back(stored_date(rows.int64(row, 0)));
  }
  return dates;
}

void PostgresBarStore::upsert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) {
  queue_bar(symbol, bar, change_pct_derived, false);
}

void PostgresBarStore::insert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) {
  queue_bar(symbol, bar, change_pct_derived, true);
}

void PostgresBarStore::queue_bar(const std::string& symbol,
                                 const domain::Bar& bar,
                                 bool change_pct_derived,
                                 bool new_row) {
  if (!m_factors.empty() || !m_marks.empty()) {
    flush(); // an update queued before this bar must not land after it
  }
  m_bars.push_back({symbol, bar, change_pct_derived, new_row});
  if (m_bars.size() >= k_batch) {
    flush_bars();
  }
}

void PostgresBarStore::save_factor(const std::string& symbol, Date date, double factor) {
  m_factors.push_back({symbol, date, factor});
  if (m_factors.size() >= k_batch) {
    flush(); // bars first: the factor may be of a bar still queued
  }
}

void PostgresBarStore::mark_change_pct_derived(const std::string& symbol, Date date) {
  m_marks.push_back({symbol, date, 0});
  if (m_marks.size() >= k_batch) {
    flush();
  }
}

void PostgresBarStore::flush() {
  flush_bars();
  flush_factors(); // factors and marks change other columns: their order does not matter
  flush_marks();
}

void PostgresBarStore::flush_bars() {
  if (m_bars.empty()) {
    return;
  }
  // One statement may change a row once: of several changes to one bar, its last counts, as it
  // would have one statement after another. New rows go first, by COPY; then the others, which
  // may replace them.
  std::unordered_set<std::string> seen;
  std::string copied;
  std::array<ArrayText, 11> columns;
  bool any_upsert = false;
  for (auto it = m_bars.rbegin(); it != m_bars.rend(); ++it) {
    if (!seen.insert(it->symbol + '/' + std::to_string(it->bar.trade_date.yyyymmdd())).second) {
      continue;
    }
    const auto& bar = it->bar;
    if (it->new_row) {
      append_copy_row(copied, it->symbol, bar, it->change_pct_derived);
      continue;
    }
    any_upsert = true;
    columns[0].add_quoted(it->symbol);
    columns[1].add(std::to_string(bar.trade_date.yyyymmdd()));
    columns[2].add(number_text(bar.open));
    columns[3].add(number_text(bar.high));
    columns[4].add(number_text(bar.low));
    columns[5].add(number_text(bar.close));
    columns[6].add(std::to_string(bar.volume));
    columns[7].add(number_text(bar.turnover));
    columns[8].add(number_text(bar.change_pct));
    columns[9].add(it->change_pct_derived ? "t" : "f");
    columns[10].add(number_text(bar.factor));
  }
  m_bars.clear();
  if (!copied.empty()) {
    m_connection.copy_in("COPY bars(symbol, trade_date, open, high, low, close, volume, turnover, "
                         "change_pct, change_pct_derived, factor) FROM STDIN",
                         copied);
  }
  if (!any_upsert) {
    return;
  }
  m_connection.run(
    "bars_write",
    "INSERT INTO bars(symbol, trade_date, open, high, low, close, volume, turnover, change_pct, "
    "change_pct_derived, factor) "
    "SELECT * FROM unnest($1::text[], $2::integer[], $3::float8[], $4::float8[], $5::float8[], "
    "$6::float8[], $7::bigint[], $8::float8[], $9::float8[], $10::boolean[], $11::float8[]) "
    "ON CONFLICT (symbol, trade_date) DO UPDATE SET open = excluded.open, high = excluded.high, "
    "low = excluded.low, close = excluded.close, volume = excluded.volume, "
    "turnover = excluded.turnover, change_pct = excluded.change_pct, "
    "change_pct_derived = excluded.change_pct_derived, factor = excluded.factor",
    {columns[0].take(), columns[1].take(), columns[2].take(), columns[3].take(), columns[4].take(),
     columns[5].take(), columns[6].take(), columns[7].take(), columns[8].take(), columns[9].take(),
     columns[10].take()});
}

void PostgresBarStore::flush_factors() {
  if (m_factors.empty()) {
    return;
  }
  std::unordered_set<std::string> seen;
  ArrayText symbols, dates, factors;
  for (auto it = m_factors.rbegin(); it != m_factors.rend(); ++it) {
    if (seen.insert(it->symbol + '/' + std::to_string(it->date.yyyymmdd())).second) {
      symbols.add_quoted(it->symbol);
      dates.add(std::to_string(it->date.yyyymmdd()));
      factors.add(number_text(it->factor));
    }
  }
  m_factors.clear();
  m_connection.run("bars_factors",
                   "UPDATE bars b SET factor = u.factor "
                   "FROM unnest($1::text[], $2::integer[], $3::float8[]) u(symbol, trade_date, factor) "
                   "WHERE b.symbol = u.symbol AND b.trade_date = u.trade_date",
                   {symbols.take(), dates.take(), factors.take()});
}

void PostgresBarStore::flush_marks() {
  if (m_marks.empty()) {
    return;
  }
  ArrayText symbols, dates;
  for (const auto& mark : m_marks) {
    symbols.add_quoted(mark.symbol);
    dates.add(std::to_string(mark.date.yyyymmdd()));
  }
  m_marks.clear();
  m_connection.run("bars_marks",
                   "UPDATE bars b SET change_pct_derived = true "
                   "FROM unnest($1::text[], $2::integer[]) u(symbol, trade_date) "
                   "WHERE b.symbol = u.symbol AND b.trade_date = u.trade_date",
                   {symbols.take(), dates.take()});
}

bool PostgresBarStore::has_bars(const std::string& symbol) {
  flush();
  const auto rows = m_connection.run(
    "bars_any", "SELECT EXISTS(SELECT 1 FROM bars WHERE symbol = $1)", {symbol});
  return rows.text(0, 0) == "t";
}

bool PostgresBarStore::has_non_unit_factor(const std::string& symbol) {
  flush();
  const auto rows = m_connection.run(
    "bars_non_unit", "SELECT EXISTS(SELECT 1 FROM bars WHERE symbol = $1 AND factor <> 1)",
    {symbol});
  return rows.text(0, 0) == "t";
}

void PostgresBarStore::recompute_change_pct(const std::string& symbol) {
  // The whole history: from before the first stored date (1970) to after the last.
  recompute_change_pct(symbol, Date{}, *Date::from_yyyymmdd(99991231));
}

void PostgresBarStore::recompute_change_pct(const std::string& symbol, Date from, Date to) {
  const auto before = find_bar_before(symbol, from); // flushes
  const auto rows = m_connection.run(
    "bars_for_change",
    "SELECT trade_date, close, factor, change_pct_derived FROM bars "
    "WHERE symbol = $1 AND trade_date >= $2 ORDER BY trade_date",
    {symbol, date_param(from)});
  const auto last = static_cast<std::int64_t>(to.yyyymmdd());
  bool first = !before;
  double previous_close = before ? before->close : 0;
  double previous_factor = before ? before->factor : 0;
  ArrayText dates, changes;
  bool any = false;
  for (int row = 0; row < rows.rows(); ++row) {
    const std::int64_t date = rows.int64(row, 0);
    const double close = rows.float64(row, 1);
    const double factor = rows.float64(row, 2);
    if (rows.text(row, 3) == "t") {
      const double change =
        first ? 0.0 : domain::derived_change_pct(close, factor, previous_close, previous_factor);
      dates.add(std::to_string(date));
      changes.add(number_text(change));
      any = true;
    }
    previous_close = close;
    previous_factor = factor;
    first = false;
    if (date > last) {
      break; // the first bar after `to` was the last that depends on a written one
    }
  }
  if (any) {
    m_connection.run("bars_change",
                     "UPDATE bars b SET change_pct = u.change_pct "
                     "FROM unnest($2::integer[], $3::float8[]) u(trade_date, change_pct) "
                     "WHERE b.symbol = $1 AND b.trade_date = u.trade_date",
                     {symbol, dates.take(), changes.take()});
  }
}

void PostgresBarStore::stage_pre_close(const std::string& symbol, Date date, double pre_close) {
  if (!m_staging) {
    // TEMP: private to this connection, gone when it closes (or with the transaction that made it).
    m_connection.exec("CREATE TEMP TABLE IF NOT EXISTS staged_pre_close("
                      "symbol text NOT NULL, trade_date integer NOT NULL, "
                      "pre_close double precision NOT NULL, PRIMARY KEY(symbol, trade_date))");
    m_staging = true;
  }
  m_connection.run("stage_pre_close",
                   "INSERT INTO staged_pre_close VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                   {symbol, date_param(date), number_text(pre_close)});
}

std::vector<std::pair<Date, double>> PostgresBarStore::load_staged_pre_close(const std::string& symbol) {
  std::vector<std::pair<Date, double>> out;
  if (!m_staging) {
    return out;
  }
  const auto rows = m_connection.run(
    "staged_pre_close",
    "SELECT trade_date, pre_close FROM staged_pre_close WHERE symbol = $1 ORDER BY trade_date",
    {symbol});
  for (int row = 0; row < rows.rows(); ++row) {
    out.emplace_back(stored_date(rows.int64(row, 0)), rows.float64(row, 1));
  }
  return out;
}

void PostgresBarStore::clear_staged_pre_close() {
  if (m_staging) {
    m_connection.exec("DELETE FROM staged_pre_close");
  }
}

std::int64_t PostgresBarStore::delete_bars(const std::string& symbol, Date from, Date to) {
  flush();
  return m_connection
    .run("bars_delete", "DELETE FROM bars WHERE symbol = $1 AND trade_date BETWEEN $2 AND $3",
         {symbol, date_param(from), date_param(to)})
    .changed();
}

void PostgresBarStore::refresh_symbol(const std::string& symbol) {
  flush();
  m_connection.run("symbol_forget", "DELETE FROM bar_symbols WHERE symbol = $1", {symbol});
  const auto inserted = m_connection.run(
    "symbol_refresh",
    "INSERT INTO bar_symbols(symbol, first_date, last_date, bar_count, latest_factor, kind) "
    "SELECT $1::text, min(trade_date), max(trade_date), count(*), "
    "(SELECT factor FROM bars WHERE symbol = $1 ORDER BY trade_date DESC LIMIT 1), " ASHARE_PG_SUMMARY_KIND
    " FROM bars WHERE symbol = $1 HAVING count(*) > 0",
    {symbol, code_kind_text(symbol)});
  if (inserted.changed() == 0) {
    m_connection.run("symbol_source_forget", "DELETE FROM bar_symbol_sources WHERE symbol = $1",
                     {symbol});
  }
}

void PostgresBarStore::save_symbol_summary(const std::string& symbol,
                                           Date first,
                                           Date last,
                                           std::int64_t count,
                                           double latest_factor) {
  flush();
  m_connection.run(
    "symbol_summary",
    "INSERT INTO bar_symbols(symbol, first_date, last_date, bar_count, latest_factor, kind) "
    "VALUES ($1, $3, $4, $5, $6, " ASHARE_PG_SUMMARY_KIND ") ON CONFLICT (symbol) DO UPDATE SET "
    "first_date = excluded.first_date, last_date = excluded.last_date, "
    "bar_count = excluded.bar_count, latest_factor = excluded.latest_factor, kind = excluded.kind",
    {symbol, code_kind_text(symbol), date_param(first), date_param(last), count,
     number_text(latest_factor)});
}

void PostgresBarStore::save_symbol_source(const std::string& symbol, const SymbolSource& source) {
  flush();
  m_connection.run("symbol_source",
                   "INSERT INTO bar_symbol_sources(symbol, source, factor_origin, adjusted) "
                   "VALUES ($1, $2, $3, $4) ON CONFLICT (symbol) DO UPDATE SET "
                   "source = excluded.source, factor_origin = excluded.factor_origin, "
                   "adjusted = excluded.adjusted",
                   {symbol, source.source, source.factor_origin, source.adjusted ? "t" : "f"});
}

void PostgresBarStore::finish_change(const std::string& source) {
  flush();
  if (!source.empty()) {
    m_connection.run("meta_source",
                     "INSERT INTO bars_meta(key, value) VALUES ('source', $1) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                     {source});
  }
  // as_of recomputed (D18: the latest whole-market ledger day when there is one, else D8's
  // latest bar; D20: the stocks' ledger day), the generation bumped, and every listening replica told at commit.
  m_connection.exec(
    "DELETE FROM bars_meta WHERE key = 'as_of';"
    "INSERT INTO bars_meta(key, value) SELECT 'as_of', day::text FROM (SELECT coalesce("
    "(SELECT max(trade_date) FROM fetch_ledger WHERE symbol = '' AND kind = 'stock'), "
    "(SELECT max(last_date) FROM bar_symbols)) AS day) AS latest WHERE day IS NOT NULL;"
    "UPDATE bars_meta SET value = (value::bigint + 1)::text WHERE key = 'generation';"
    "SELECT pg_notify('ashare_bars', '')");
}

void PostgresBarStore::begin_read() {
  // One snapshot for every read until end_read(), as a SQLite read transaction gives.
  m_connection.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
}

void PostgresBarStore::end_read() {
  try {
    m_connection.exec("COMMIT");
  } catch (const std::exception&) {
    // A read transaction has nothing to lose; a broken connection is dropped by its pool.
  }
}

void PostgresBarStore::begin_write() {
  m_connection.exec("BEGIN");
  m_connection.exec(k_write_lock);
}

void PostgresBarStore::commit_write() {
  flush();
  m_connection.exec("COMMIT");
}

void PostgresBarStore::rollback_write() {
  m_bars.clear();
  m_factors.clear();
  m_marks.clear();
  m_staging = false; // a staging table made by the transaction is gone with it
  try {
    m_connection.exec("ROLLBACK");
  } catch (const std::exception&) {
    // Nothing was committed; a broken connection is dropped by its pool.
  }
}

} // namespace ashare::store::postgres
