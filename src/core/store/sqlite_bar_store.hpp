// The data store in a SQLite file (store/bar_store.hpp): bars keyed by (symbol id, trade_date) in
// a compact exact form (store/stored_number.hpp). A commit bumps the file's change counter
// (store/change_counter.hpp), so servers sharing the file see it at once.
#pragma once

#include "core/store/bar_store.hpp"
#include "core/store/change_counter.hpp"
#include "core/store/market_record.hpp"
#include "core/store/reused_statement.hpp"
#include "core/store/sqlite_sql_session.hpp"

#include <filesystem>
#include <memory>
#include <unordered_map>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

namespace ashare::store {

class SqliteBarStore final : public BarStore {
public:
  // Open (and create or migrate) the data store at `path`.
  explicit SqliteBarStore(const std::filesystem::path& path);
  ~SqliteBarStore() override;

  std::int64_t load_generation() override;
  DatasetInfo load_dataset_info() override;
  std::vector<SymbolInfo> load_symbols() override;
  std::optional<SymbolInfo> find_symbol(const std::string& symbol) override;
  std::vector<domain::Bar> load_bars(const std::string& symbol,
                                     domain::Date from,
                                     domain::Date to,
                                     domain::SortOrder order,
                                     std::int64_t limit) override;
  std::optional<domain::Bar> find_bar_before(const std::string& symbol, domain::Date date) override;
  bool has_bars_outside(const std::string& symbol, domain::Date from, domain::Date to) override;
  PriceSeries load_price_series(const std::string& symbol, PriceField field) override;
  std::vector<domain::Date> load_derived_dates(const std::string& symbol) override;

  void upsert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) override;
  // Throws SQLite::Exception when the bar is already stored.
  void insert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) override;
  bool has_bars(const std::string& symbol) override;
  bool has_non_unit_factor(const std::string& symbol) override;
  void recompute_change_pct(const std::string& symbol) override;
  void recompute_change_pct(const std::string& symbol, domain::Date from, domain::Date to) override;
  void save_factor(const std::string& symbol, domain::Date date, double factor) override;
  void mark_change_pct_derived(const std::string& symbol, domain::Date date) override;
  void stage_pre_close(const std::string& symbol, domain::Date date, double pre_close) override;
  std::vector<std::pair<domain::Date, double>> load_staged_pre_close(const std::string& symbol) override;
  void clear_staged_pre_close() override;
  std::int64_t delete_bars(const std::string& symbol, domain::Date from, domain::Date to) override;
  void refresh_symbol(const std::string& symbol) override;
  void save_symbol_summary(const std::string& symbol,
                           domain::Date first,
                           domain::Date last,
                           std::int64_t count,
                           double latest_factor) override;
  void save_symbol_source(const std::string& symbol, const SymbolSource& source) override;
  void finish_change(const std::string& source) override;
  MarketRecord& market() override { return m_market; }

  // The file's connection, for tests that look at what is stored.
  SQLite::Database& database() { return m_db; }

private:
  void begin_read() override;
  void end_read() override;
  void begin_write() override;
  void commit_write() override;
  void rollback_write() override;

  // Return this connection's prepared statements (store/reused_statement.hpp).
  StatementCache& statement_cache();
  // Return the id of `symbol` in symbol_ids, adding it when new (inside a WriteTransaction).
  std::int64_t symbol_id(const std::string& symbol);
  // Bind the bar's values to `statement` (upsert or insert) and run it.
  void write_bar(SQLite::Statement& statement,
                 const std::string& symbol,
                 const domain::Bar& bar,
                 bool change_pct_derived);

  SQLite::Database m_db;
  std::unordered_map<std::string, std::int64_t> m_symbol_ids; // known ids; forgotten at a rollback
  struct Statements;
  std::unique_ptr<Statements> m_statements;
  std::unique_ptr<ChangeCounter> m_changes; // opened by the first commit
  SqliteSqlSession m_sql;                    // the market record's statements, on m_db
  MarketRecord m_market;
};

} // namespace ashare::store
