// The data store: bars keyed by (symbol id, trade_date) in a compact exact form
// (store/stored_number.hpp), the known symbols and the dataset metadata
// (as_of, source, generation). One BarStore is one connection with its prepared statements; a
// server keeps one per worker thread (see store/connection_pool.hpp).
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/store/change_counter.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

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
};

class BarStore {
public:
  // Open (and create or migrate) the data store at `path`.
  explicit BarStore(const std::filesystem::path& path);
  ~BarStore();
  BarStore(const BarStore&) = delete;
  BarStore& operator=(const BarStore&) = delete;

  // ---- Reads ----

  // Return the generation counter; it changes whenever an import or removal commits.
  std::int64_t load_generation();

  // Return as_of, source and generation.
  DatasetInfo load_dataset_info();

  // Return every known symbol, ordered by symbol.
  std::vector<SymbolInfo> load_symbols();

  // Return the known symbol `symbol`, or nullopt.
  std::optional<SymbolInfo> find_symbol(const std::string& symbol);

  // Return up to `limit` bars of `symbol` with trade_date in [`from`, `to`], ordered by `order`.
  std::vector<domain::Bar> load_bars(const std::string& symbol,
                                     domain::Date from,
                                     domain::Date to,
                                     domain::SortOrder order,
                                     std::int64_t limit);

  // Return the latest stored bar of `symbol` before `date`, or nullopt.
  std::optional<domain::Bar> find_bar_before(const std::string& symbol, domain::Date date);

  // Return whether `symbol` has stored bars outside [`from`, `to`].
  bool has_bars_outside(const std::string& symbol, domain::Date from, domain::Date to);

  // Return the `field` prices and factors of every stored bar of `symbol`, ascending by date;
  // reads only those columns.
  PriceSeries load_price_series(const std::string& symbol, PriceField field);

  // ---- Writes (each inside a WriteTransaction) ----

  // Insert or replace the bar of `symbol` on `bar.trade_date`. When `change_pct_derived`, the
  // stored change_pct is a placeholder that recompute_change_pct() fills in.
  void upsert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived);

  // Insert the bar of `symbol` on `bar.trade_date` as upsert_bar() does, faster; requires that no
  // bar of `symbol` is stored on that date (else throws SQLite::Exception).
  void insert_bar(const std::string& symbol, const domain::Bar& bar, bool change_pct_derived);

  // Return whether any bar of `symbol` is stored.
  bool has_bars(const std::string& symbol);

  // Return whether any stored bar of `symbol` has a factor other than 1.
  bool has_non_unit_factor(const std::string& symbol);

  // Recompute change_pct of the bars of `symbol` whose change_pct is derived, in date order, as
  // ((close*factor)/(prev_close*prev_factor) - 1) * 100, and 0 for the first bar.
  void recompute_change_pct(const std::string& symbol);

  // Recompute as recompute_change_pct(symbol) does, but only what rows written in [`from`, `to`]
  // can change: the derived change_pct from `from` to the first bar after `to`.
  void recompute_change_pct(const std::string& symbol, domain::Date from, domain::Date to);

  // Set the factor of the bar of `symbol` on `date`.
  void save_factor(const std::string& symbol, domain::Date date, double factor);

  // Mark the change_pct of the bar of `symbol` on `date` as derived.
  void mark_change_pct_derived(const std::string& symbol, domain::Date date);

  // Keep `pre_close` of `symbol` on `date` in a temporary table of this connection, for an
  // import that may derive factors along the pre_close chain once the whole file is read.
  void stage_pre_close(const std::string& symbol, domain::Date date, double pre_close);

  // Return the staged pre_close values of `symbol`, ascending by date.
  std::vector<std::pair<domain::Date, double>> load_staged_pre_close(const std::string& symbol);

  // Forget every staged pre_close.
  void clear_staged_pre_close();

  // Delete the bars of `symbol` with trade_date in [`from`, `to`]; return how many were deleted.
  std::int64_t delete_bars(const std::string& symbol, domain::Date from, domain::Date to);

  // Refresh the symbols row of `symbol` from its bars (dropping it when it has none).
  void refresh_symbol(const std::string& symbol);

  // Write the symbols row of `symbol` as refresh_symbol() would find it, from what the caller
  // knows: its bars span [`first`, `last`], `count` of them, the latest with `latest_factor`.
  void save_symbol_summary(const std::string& symbol,
                           domain::Date first,
                           domain::Date last,
                           std::int64_t count,
                           double latest_factor);

  // Record where the bars of `symbol` came from.
  void save_symbol_source(const std::string& symbol, const SymbolSource& source);

  // Record `source` (when not empty), recompute as_of and bump the generation.
  void finish_change(const std::string& source);

  // Bump the store's change counter (store/change_counter.hpp), so that servers sharing the
  // store see what was just committed; WriteTransaction::commit() calls it.
  void announce_change();

  SQLite::Database& database() { return m_db; }

private:
  friend class ReadTransaction;
  friend class WriteTransaction;
  // Return the id of `symbol` in symbol_ids, adding it when new (inside a WriteTransaction).
  std::int64_t symbol_id(const std::string& symbol);
  // Bind the bar's values to `statement` (upsert or insert) and run it.
  void write_bar(SQLite::Statement& statement,
                 const std::string& symbol,
                 const domain::Bar& bar,
                 bool change_pct_derived);

  SQLite::Database m_db;
  std::unordered_map<std::string, std::int64_t> m_symbol_ids; // valid within a WriteTransaction
  struct Statements;
  std::unique_ptr<Statements> m_statements;
  std::unique_ptr<ChangeCounter> m_changes; // opened by the first announce_change()
};

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

// An IMMEDIATE write transaction on `store`, rolled back unless commit() is called.
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
