// The data store: bars keyed by symbol and trade_date, the known symbols and the dataset metadata
// (as_of, source, generation), in a SQLite file (store/sqlite_bar_store.hpp) or a PostgreSQL
// database (store/postgres/bar_store.hpp, issue 14), chosen by open_bar_store(); and, on the same
// connection, the market record (store/market_record.hpp: calendar, listings, ledger, ...). One
// BarStore is one connection with its prepared statements; a server keeps one per worker thread
// (see store/connection_pool.hpp).
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/error.hpp"
#include "core/store/market_record.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ashare::store {

struct SymbolInfo {
  std::string symbol; // canonical, e.g. "600519.SH"
  domain::Date first_date;
  domain::Date last_date;
  std::int64_t bar_count = 0;
  double latest_factor = 1; // factor of the symbol's latest stored bar (the D8 anchor)
  std::string source;        // format of the last import ("" before schema 2)
  std::string factor_origin; // file, adj_factor, pre_close_chain or none ("" when unknown)
  bool adjusted = false;     // the prices were imported already adjusted (--adjusted-input)
  // D20: its listing's kind when a provider's list names it, else its code's; nullopt for a code
  // D20 keeps out (stored before D20). The view symbols_v says the same.
  std::optional<domain::Kind> kind = domain::Kind::stock;
};

// Where a symbol's bars came from: recorded per symbol by every import.
struct SymbolSource {
  std::string source;
  std::string factor_origin;
  bool adjusted = false;
};

// A price column of the bars table: the `series_type` of the indicator endpoints.
enum class PriceField { open, high, low, close };

// Return the lower-case name of `field` ("open", ...).
std::string_view price_field_name(PriceField field);

// One price column of a symbol's whole history, ascending by date, with the factors (D9).
struct PriceSeries {
  std::vector<domain::Date> dates;
  std::vector<double> prices; // raw
  std::vector<double> factors;
};

struct DatasetInfo {
  std::optional<domain::Date> as_of; // latest trade_date in the store; nullopt when empty
  std::string source;                // recorded by the most recent import
  std::int64_t generation = 0;       // bumped by every committed change to the bars
  std::string store_id = {};         // random, made with the store: names it in ETags (D17)
};

// Set what the row (`key`, `value`) of a store's meta table says in `info` (both backends keep
// as_of, source, generation and store_id as text rows); ignore other keys.
void add_meta_row(DatasetInfo& info, std::string_view key, const std::string& value);

class BarStore {
public:
  BarStore() = default;
  virtual ~BarStore() = default;
  BarStore(const BarStore&) = delete;
  BarStore& operator=(const BarStore&) = delete;

  // ---- Reads ----

  // Return the generation counter; it changes whenever an import or removal commits.
  virtual std::int64_t load_generation() = 0;

  // Return as_of, source and generation.
  virtual DatasetInfo load_dataset_info() = 0;

  // Return every known symbol, ordered by symbol.
  virtual std::vector<SymbolInfo> load_symbols() = 0;

  // Return the known symbol `symbol`, or nullopt.
  virtual std::optional<SymbolInfo> find_symbol(const std::string& symbol) = 0;

  // Return up to `limit` bars of `symbol` with trade_date in [`from`, `to`], ordered by `order`.
  virtual std::vector<domain::Bar> load_bars(const std::string& symbol,
                                     domain::Date from,
                                     domain::Date to,
                                     domain::SortOrder order,
                                     std::int64_t limit) = 0;

  // Return the latest stored bar of `symbol` before `date`, or nullopt.
  virtual std::optional<domain::Bar> find_bar_before(const std::string& symbol, domain::Date date) = 0;

  // Return whether `symbol` has stored bars outside [`from`, `to`].
  virtual bool has_bars_outside(const std::string& symbol, domain::Date from, domain::Date to) = 0;

  // Return the `field` prices and factors of every stored bar of `symbol`, ascending by date;
  // reads only those columns.
  virtual PriceSeries load_price_series(const std::string& symbol, PriceField field) = 0;

  // Return the dates of the bars of `symbol` whose change_pct is derived (computed at import),
  // ascending: what copy_bars() must keep so that a later import recomputes exactly them.
  virtual std::vector<domain::Date> load_derived_dates(const std::string& symbol) = 0;

  // ---- Writes (each inside a WriteTransaction) ----

  // Insert or replace the bar of `symbol` on `bar.trade_date`. When `change_pct_derived`, the
  // stored change_pct is a placeholder that recompute_change_pct() fills in.
  virtual void upsert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) = 0;

  // Insert the bar of `symbol` on `bar.trade_date` as upsert_bar() does, faster; requires that no
  // bar of `symbol` is stored on that date (else throws).
  virtual void insert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived) = 0;

  // Return whether any bar of `symbol` is stored.
  virtual bool has_bars(const std::string& symbol) = 0;

  // Return whether any stored bar of `symbol` has a factor other than 1.
  virtual bool has_non_unit_factor(const std::string& symbol) = 0;

  // Recompute change_pct of the bars of `symbol` whose change_pct is derived, in date order, as
  // ((close*factor)/(prev_close*prev_factor) - 1) * 100, and 0 for the first bar.
  virtual void recompute_change_pct(const std::string& symbol) = 0;

  // Recompute as recompute_change_pct(symbol) does, but only what rows written in [`from`, `to`]
  // can change: the derived change_pct from `from` to the first bar after `to`.
  virtual void recompute_change_pct(const std::string& symbol, domain::Date from, domain::Date to) = 0;

  // Set the factor of the bar of `symbol` on `date`.
  virtual void save_factor(const std::string& symbol, domain::Date date, double factor) = 0;

  // Mark the change_pct of the bar of `symbol` on `date` as derived.
  virtual void mark_change_pct_derived(const std::string& symbol, domain::Date date) = 0;

  // Keep `pre_close` of `symbol` on `date` in a temporary table of this connection, for an
  // import that may derive factors along the pre_close chain once the whole file is read.
  virtual void stage_pre_close(const std::string& symbol, domain::Date date, double pre_close) = 0;

  // Return the staged pre_close values of `symbol`, ascending by date.
  virtual std::vector<std::pair<domain::Date, double>> load_staged_pre_close(const std::string& symbol) = 0;

  // Forget every staged pre_close.
  virtual void clear_staged_pre_close() = 0;

  // Delete the bars of `symbol` with trade_date in [`from`, `to`]; return how many were deleted.
  virtual std::int64_t delete_bars(const std::string& symbol, domain::Date from, domain::Date to) = 0;

  // Refresh the symbols row of `symbol` from its bars (dropping it when it has none).
  virtual void refresh_symbol(const std::string& symbol) = 0;

  // Write the symbols row of `symbol` as refresh_symbol() would find it, from what the caller
  // knows: its bars span [`first`, `last`], `count` of them, the latest with `latest_factor`.
  virtual void save_symbol_summary(const std::string& symbol,
                           domain::Date first,
                           domain::Date last,
                           std::int64_t count,
                           double latest_factor) = 0;

  // Record where the bars of `symbol` came from.
  virtual void save_symbol_source(const std::string& symbol, const SymbolSource& source) = 0;

  // Record `source` (when not empty), recompute as_of and bump the generation.
  virtual void finish_change(const std::string& source) = 0;

  // Return whether this connection still works (false once a database server went away: a pool
  // then drops it rather than lend it again).
  virtual bool healthy() const { return true; }

  // ---- The market record (D18, D19), on this connection and in its transactions ----

  // Return the calendar, listings, suspensions, absence marks, fetch ledger and code aliases.
  virtual MarketRecord& market() = 0;

protected:
  friend class ReadTransaction;
  friend class WriteTransaction;
  // What the transactions below do on this backend.
  virtual void begin_read() = 0;
  virtual void end_read() = 0; // never throws
  virtual void begin_write() = 0;
  virtual void commit_write() = 0;
  virtual void rollback_write() = 0; // never throws
};

// Open (and create or migrate) the data store at `locator`: a postgresql:// URI or a SQLite file
// path (store/locator.hpp). Throws StoreUnavailable when a database server cannot be reached.
std::unique_ptr<BarStore> open_bar_store(const std::string& locator);

// What copy_bars() copied.
struct BarCopy {
  std::size_t symbols = 0;
  std::int64_t bars = 0;
};

// Copy every bar, symbol and source of `from` into `to` exactly (issue 14: moving to another
// backend without re-importing), with the market record (D19: copy_market_record), in one
// transaction of `to` read from one snapshot of `from`;
// `progress(bars copied, bars in all)` after each symbol. An INVALID_INPUT error, writing nothing,
// when `to` already holds bars.
Result<BarCopy> copy_bars(BarStore& from,
                          BarStore& to,
                          const std::function<void(std::int64_t, std::int64_t)>& progress = {});

// A read transaction on `store`: the reads made while it lives see one snapshot of the store.
class ReadTransaction {
public:
  explicit ReadTransaction(BarStore& store);
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;

private:
  BarStore& m_store;
};

// A write transaction on `store` (IMMEDIATE on SQLite: it takes the write lock at once), rolled
// back unless commit() is called. Its changes reach other connections and servers when it commits.
class WriteTransaction {
public:
  explicit WriteTransaction(BarStore& store);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit();

private:
  BarStore& m_store;
  bool m_done = false;
};

} // namespace ashare::store
