// The data store in a PostgreSQL database (issue 14), read by `serve` replicas on several hosts.
// Every number reads back bit for bit (double precision, D12). Writers take one advisory lock per
// write transaction, so imports and removals run one at a time as they do on SQLite; a commit
// bumps the generation and NOTIFYs ashare_bars, which replicas hear (store/postgres/
// change_listener.hpp).
//
// An import writes rows one at a time through the BarStore interface; a round trip per row would
// cost more than the row itself, so the rows (and factor and change_pct updates) wait in memory,
// 16,384 at most, and go in one statement each batch, before any other statement runs: new rows
// (insert_bar) by COPY, the fastest way in, the others by one INSERT ... ON CONFLICT.
#pragma once

#include "core/store/bar_store.hpp"
#include "core/store/market_record.hpp"
#include "core/store/postgres/connection.hpp"
#include "core/store/postgres/sql_session.hpp"

#include <string>
#include <vector>

namespace ashare::store::postgres {

class PostgresBarStore final : public BarStore {
public:
  // Connect to `uri` and migrate its data tables. Throws StoreUnavailable when the server cannot
  // be reached.
  explicit PostgresBarStore(const std::string& uri);
  ~PostgresBarStore() override;

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
  bool healthy() const override { return m_connection.healthy(); }
  MarketRecord& market() override { return m_market; }

private:
  void begin_read() override;
  void end_read() override;
  void begin_write() override;
  void commit_write() override;
  void rollback_write() override;

  // A bar waiting to be written (upsert_bar, insert_bar).
  struct PendingBar {
    std::string symbol;
    domain::Bar bar;
    bool change_pct_derived = false;
    bool new_row = false; // insert_bar: no bar of the symbol is stored on that date
  };
  // A factor or a derived mark waiting to be written (save_factor, mark_change_pct_derived).
  struct PendingUpdate {
    std::string symbol;
    domain::Date date;
    double factor = 0;
  };

  // Queue `bar`, writing what waits first when it would reorder changes to one row.
  void queue_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived,
                 bool new_row);
  // Write everything that waits, in the order that keeps each row's last change last.
  void flush();
  void flush_bars();
  void flush_factors();
  void flush_marks();
  // Write a batch when this many changes wait.
  static constexpr std::size_t k_batch = 16'384;

  Connection m_connection;
  std::vector<PendingBar> m_bars;
  std::vector<PendingUpdate> m_factors;
  std::vector<PendingUpdate> m_marks;
  bool m_staging = false; // the staged_pre_close temporary table exists on this connection
  PostgresSqlSession m_sql; // the market record's statements: each flushes the queued rows first
  MarketRecord m_market;
};

} // namespace ashare::store::postgres
