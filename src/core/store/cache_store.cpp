#include "core/store/cache_store.hpp"

#include "core/store/schema.hpp"
#include "core/store/stored_date.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>


namespace ashare::store {
namespace {

using domain::Date;

std::int64_t to_int(Date date) {
  return date.yyyymmdd();
}

std::optional<Date> optional_date(const SQLite::Column& column) {
  if (column.isNull()) {
    return std::nullopt;
  }
  return stored_date(column.getInt64());
}

domain::Bar read_cached_bar(SQLite::Statement& statement) {
  return domain::Bar{stored_date(statement.getColumn(0).getInt64()), statement.getColumn(1).getDouble(),
                     statement.getColumn(2).getDouble(),         statement.getColumn(3).getDouble(),
                     statement.getColumn(4).getDouble(),         statement.getColumn(5).getInt64(),
                     statement.getColumn(6).getDouble(),         statement.getColumn(7).getDouble(),
                     statement.getColumn(8).getDouble()};
}

void insert_bar(SQLite::Statement& insert, const domain::Bar& bar) {
  insert.reset();
  insert.bind(3, to_int(bar.trade_date));
  insert.bind(4, bar.open);
  insert.bind(5, bar.high);
  insert.bind(6, bar.low);
  insert.bind(7, bar.close);
  insert.bind(8, static_cast<std::int64_t>(bar.volume));
  insert.bind(9, bar.turnover);
  insert.bind(10, bar.change_pct);
  insert.bind(11, bar.factor);
  insert.exec();
}

} // namespace

CacheStore::CacheStore(const std::filesystem::path& path)
    : m_db(open_database(path, StoreKind::cache)) {}

RemoteState CacheStore::load_remote(const std::string& base_url) {
  SQLite::Statement statement(
      m_db, "SELECT as_of, checked_at_ms, source FROM remotes WHERE base_url = ?1");
  statement.bind(1, base_url);
  RemoteState state;
  if (statement.executeStep()) {
    state.as_of = optional_date(statement.getColumn(0));
    if (!statement.getColumn(1).isNull()) {
      state.checked_at_ms = statement.getColumn(1).getInt64();
    }
    state.source = statement.getColumn(2).getString();
  }
  return state;
}

void CacheStore::save_check(const std::string& base_url,
                            std::optional<Date> as_of,
                            std::int64_t checked_at_ms) {
  SQLite::Statement statement(
      m_db, "INSERT INTO remotes(base_url, as_of, checked_at_ms) VALUES (?1, ?2, ?3) "
            "ON CONFLICT(base_url) DO UPDATE SET as_of = excluded.as_of, "
            "checked_at_ms = excluded.checked_at_ms");
  statement.bind(1, base_url);
  if (as_of) {
    statement.bind(2, to_int(*as_of));
  }
  statement.bind(3, checked_at_ms);
  statement.exec();
}

void CacheStore::save_answer_meta(const std::string& base_url,
                                  Date as_of,
                                  const std::string& source) {
  SQLite::Statement statement(m_db,
                              "INSERT INTO remotes(base_url, as_of, source) VALUES (?1, ?2, ?3) "
                              "ON CONFLICT(base_url) DO UPDATE SET source = excluded.source, "
                              "as_of = max(coalesce(as_of, 0), excluded.as_of)");
  statement.bind(1, base_url);
  statement.bind(2, to_int(as_of));
  statement.bind(3, source);
  statement.exec();
}

void CacheStore::save_page(const std::string& base_url, const FetchedPage& page) {
  SQLite::Transaction transaction(m_db, SQLite::TransactionBehavior::IMMEDIATE);
  SQLite::Statement insert(
      m_db, "INSERT OR REPLACE INTO cached_bars(base_url, symbol, trade_date, open, high, low, "
            "close, volume, turnover, change_pct, factor) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  insert.bind(1, base_url);
  insert.bind(2, page.symbol);
  for (const auto& bar : page.bars) {
    insert_bar(insert, bar);
  }
  if (page.source) {
    SQLite::Statement source(m_db, "INSERT OR REPLACE INTO symbol_sources(base_url, symbol, source) "
                                   "VALUES (?1, ?2, ?3)");
    source.bind(1, base_url);
    source.bind(2, page.symbol);
    source.bind(3, *page.source);
    source.exec();
  }
  if (page.first <= page.last) {
    SQLite::Statement coverage(
        m_db, "INSERT INTO coverage(base_url, symbol, first_date, last_date, fetched_as_of) "
              "VALUES (?1, ?2, ?3, ?4, ?5)");
    coverage.bind(1, base_url);
    coverage.bind(2, page.symbol);
    coverage.bind(3, to_int(page.first));
    coverage.bind(4, to_int(page.last));
    coverage.bind(5, to_int(page.as_of));
    coverage.exec();
  }
  transaction.commit();
}

std::vector<CoveredRange> CacheStore::load_coverage(const std::string& base_url,
                                                    const std::string& symbol) {
  SQLite::Statement statement(m_db, "SELECT first_date, last_date, fetched_as_of FROM coverage "
                                    "WHERE base_url = ?1 AND symbol = ?2");
  statement.bind(1, base_url);
  statement.bind(2, symbol);
  std::vector<CoveredRange> out;
  while (statement.executeStep()) {
    out.push_back(CoveredRange{stored_date(statement.getColumn(0).getInt64()),
                               stored_date(statement.getColumn(1).getInt64()),
                               stored_date(statement.getColumn(2).getInt64())});
  }
  return out;
}

std::vector<domain::Bar> CacheStore::load_bars(const std::string& base_url,
                                               const std::string& symbol,
                                               Date from,
                                               Date to,
                                               domain::SortOrder order,
                                               std::int64_t limit) {
  const char* direction = order == domain::SortOrder::asc ? "ASC" : "DESC";
  SQLite::Statement statement(
      m_db, std::string("SELECT trade_date, open, high, low, close, volume, turnover, change_pct, "
                        "factor FROM cached_bars WHERE base_url = ?1 AND symbol = ?2 "
                        "AND trade_date BETWEEN ?3 AND ?4 ORDER BY trade_date ")
                + direction + " LIMIT ?5");
  statement.bind(1, base_url);
  statement.bind(2, symbol);
  statement.bind(3, to_int(from));
  statement.bind(4, to_int(to));
  statement.bind(5, limit);
  std::vector<domain::Bar> bars;
  while (statement.executeStep()) {
    bars.push_back(read_cached_bar(statement));
  }
  return bars;
}

PriceSeries CacheStore::load_price_series(const std::string& base_url,
                                          const std::string& symbol,
                                          PriceField field) {
  SQLite::Statement statement(m_db, "SELECT trade_date, " + std::string(price_field_name(field))
                                        + ", factor FROM cached_bars WHERE base_url = ?1 "
                                          "AND symbol = ?2 ORDER BY trade_date");
  statement.bind(1, base_url);
  statement.bind(2, symbol);
  PriceSeries series;
  while (statement.executeStep()) {
    series.dates.push_back(stored_date(statement.getColumn(0).getInt64()));
    series.prices.push_back(statement.getColumn(1).getDouble());
    series.factors.push_back(statement.getColumn(2).getDouble());
  }
  return series;
}

std::optional<Anchor> CacheStore::find_anchor(const std::string& base_url,
                                              const std::string& symbol) {
  SQLite::Statement statement(
      m_db, "SELECT factor, as_of FROM anchors WHERE base_url = ?1 AND symbol = ?2");
  statement.bind(1, base_url);
  statement.bind(2, symbol);
  if (!statement.executeStep()) {
    return std::nullopt;
  }
  return Anchor{statement.getColumn(0).getDouble(), stored_date(statement.getColumn(1).getInt64())};
}

void CacheStore::save_anchor(const std::string& base_url,
                             const std::string& symbol,
                             const Anchor& anchor) {
  SQLite::Statement statement(
      m_db,
      "INSERT OR REPLACE INTO anchors(base_url, symbol, factor, as_of) VALUES (?1, ?2, ?3, ?4)");
  statement.bind(1, base_url);
  statement.bind(2, symbol);
  statement.bind(3, anchor.factor);
  statement.bind(4, to_int(anchor.as_of));
  statement.exec();
}

std::optional<TaggedAnswer> CacheStore::find_tagged_answer(const std::string& base_url,
                                                           const std::string& target) {
  SQLite::Statement statement(
      m_db, "SELECT etag, body FROM revalidations WHERE base_url = ?1 AND target = ?2");
  statement.bind(1, base_url);
  statement.bind(2, target);
  if (!statement.executeStep()) {
    return std::nullopt;
  }
  return TaggedAnswer{statement.getColumn(0).getString(), statement.getColumn(1).getString()};
}

void CacheStore::save_tagged_answer(const std::string& base_url,
                                    const std::string& target,
                                    const TaggedAnswer& answer) {
  SQLite::Statement statement(m_db, "INSERT OR REPLACE INTO revalidations(base_url, target, etag, "
                                    "body) VALUES (?1, ?2, ?3, ?4)");
  statement.bind(1, base_url);
  statement.bind(2, target);
  statement.bind(3, answer.etag);
  statement.bind(4, answer.body);
  statement.exec();
}

std::vector<CachedSymbol> CacheStore::load_symbols(const std::string& base_url) {
  SQLite::Statement statement(
      m_db, "SELECT symbol, (SELECT count(*) FROM cached_bars b WHERE b.base_url = ?1 "
            "AND b.symbol = s.symbol) FROM (SELECT symbol FROM coverage WHERE base_url = ?1 "
            "UNION SELECT symbol FROM cached_bars WHERE base_url = ?1) s ORDER BY symbol");
  statement.bind(1, base_url);
  std::vector<CachedSymbol> out;
  while (statement.executeStep()) {
    out.push_back(
        CachedSymbol{statement.getColumn(0).getString(), statement.getColumn(1).getInt64(), {}});
  }
  for (auto& symbol : out) {
    symbol.coverage = load_coverage(base_url, symbol.symbol);
  }
  return out;
}

std::optional<std::string> CacheStore::find_symbol_source(const std::string& base_url,
                                                          const std::string& symbol) {
  SQLite::Statement statement(
    m_db, "SELECT source FROM symbol_sources WHERE base_url = ?1 AND symbol = ?2");
  statement.bind(1, base_url);
  statement.bind(2, symbol);
  if (!statement.executeStep()) {
    return std::nullopt;
  }
  return statement.getColumn(0).getString();
}

std::vector<std::string> CacheStore::load_symbol_names(const std::string& base_url) {
  SQLite::Statement statement(m_db, "SELECT symbol FROM coverage WHERE base_url = ?1 "
                                    "UNION SELECT symbol FROM cached_bars WHERE base_url = ?1 "
                                    "ORDER BY symbol");
  statement.bind(1, base_url);
  std::vector<std::string> out;
  while (statement.executeStep()) {
    out.push_back(statement.getColumn(0).getString());
  }
  return out;
}

} // namespace ashare::store
