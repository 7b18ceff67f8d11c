// Writing one file's rows into the data store as they are read (issue 11): each row is upserted
// inside one write transaction as the parser hands it over, so memory does not grow with the
// file. What needs a symbol's other rows (duplicates, the factor scale, the pre_close chain,
// factor steps, derived change_pct) is done per symbol once the file ends. An index's factor is 1
// on every bar (D20), whatever the file says. Nothing is visible
// before the commit, and a refusal or a bad row rolls the whole file back.
#pragma once

#include "core/import/date_set.hpp"
#include "core/import/importer.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ashare::import {

// How the factors of a file that has been read are set.
struct FactorSettlement {
  FactorOrigin origin = FactorOrigin::file;
  bool chain_from_store = false; // derive them along the pre_close chain, continuing the store's
  bool adjusted_input = false;
  // Per symbol, where its factors came from when not `origin` (a fetch continues each symbol's
  // own stored chain, D18); nullptr when `origin` holds for every symbol.
  const std::map<std::string, FactorOrigin>* symbol_origins = nullptr;

  // Return where the factors of `symbol` came from.
  FactorOrigin origin_of(const std::string& symbol) const {
    if (symbol_origins != nullptr) {
      if (const auto it = symbol_origins->find(symbol); it != symbol_origins->end()) {
        return it->second;
      }
    }
    return origin;
  }
};

// A (symbol, date) that a file holds twice, and the line of the first.
using RowKey = std::pair<std::string, std::int64_t>; // symbol, YYYYMMDD
// Read the file's rows again, handing each to `visit`: a rare second pass, for the first line of
// a duplicated row or the pre_close of a symbol whose rows came apart.
using Reread = std::function<void(const std::function<void(const ParsedRow&)>& visit)>;

class FileLoader {
public:
  // Begin a write transaction on `store`; `options.progress` hears of the rows written, with
  // `fraction_read` telling how much of the file has been read (0 to 1).
  FileLoader(store::BarStore& store,
             const ImportOptions& options,
             std::function<double()> fraction_read = {});

  // Write `row`, read from `file` (whose has_factor the parser has set before any row).
  void add(ParsedRow&& row, const ParsedFile& file);

  // Return the number of rows handed over, duplicates included.
  std::int64_t rows() const { return m_rows; }

  // Return whether every row handed over has a pre_close.
  bool every_row_has_pre_close() const { return m_every_pre_close; }

  // End the file: report its problems (with those of `file`; `reread` finds the first line of
  // each duplicated row), and unless one refuses the file, settle the factors of each symbol as
  // `settlement` says, derive change_pct, record `source` and commit.
  ImportReport finish(const ParsedFile& file,
                      const FactorSettlement& settlement,
                      const Reread& reread,
                      ImportReport report);

private:
  struct SymbolState {
    std::int64_t first_line = 0; // line of the row with the earliest date
    domain::Date first, last;    // the file's dates of the symbol span [first, last]
    DateSet dates;
    bool stored_non_unit_factor = false; // before this file; checked when it has no factors
    std::optional<store::SymbolInfo> stored; // the symbol's summary before this file
    // No bar of the symbol was stored before this file: its rows are inserted, not upserted (the
    // dates are unique), and with change_pct of its own nothing is left to recompute.
    bool new_to_store = false;
    // While the rows come in date order (the usual case), the factor steps are counted as they
    // come, and the final pass need not read the rows back. Once a group is chained
    // (write_group), the steps and the latest factor are those of its chained rows.
    bool in_date_order = true;
    double last_factor = 0;
    std::int64_t factor_steps = 0;
    std::int64_t rows = 0; // written, duplicates left out
    // A file that may be chained along pre_close (no factors, every row with a pre_close so far)
    // has each symbol's rows chained in memory as they come grouped, and written once with those
    // factors (issue 11, P3: Tushare). `chained`: done for a group; `split`: the symbol came in
    // more than one group, so finish() chains its rows again, every one.
    bool chained = false;
    bool split = false;
    // An index (by its code): factor 1 on every bar, whatever the file or a chain would give (D20).
    bool unit_factor = false;
  };
  struct Duplicate {
    std::int64_t line = 0;
    RowKey key;
  };

  SymbolState& state_of(const std::string& symbol, const ParsedFile& file);
  // Return where the factors of `symbol` came from: `settlement`'s, none for an index.
  static FactorOrigin origin_of(const std::string& symbol,
                                const SymbolState& state,
                                const FactorSettlement& settlement);
  std::optional<RowProblem> check_factor_scale(const std::string& symbol,
                                               const SymbolState& state,
                                               const FactorSettlement& settlement);
  // Return whether the stored rows of a symbol are the file's rows as they came, with their final
  // factors: an unchained symbol whose rows came in date order in a file that is no chain, or a
  // chained symbol written in one group of a chain. Then nothing needs reading back.
  static bool written_final(const SymbolState& state, const FactorSettlement& settlement);
  // Chain the factors of the file's rows of `symbol` if asked; return its factor steps.
  std::int64_t settle_symbol(const std::string& symbol,
                             const SymbolState& state,
                             const FactorSettlement& settlement);
  // Insert (a new symbol) or upsert the bar of `row`.
  void write_row(const ParsedRow& row, const SymbolState& state);
  // Chain the factors of the group of rows held in m_group and write them.
  void write_group();
  // Stage the pre_close of every row of the split symbols, read again, for settle_symbol.
  void stage_split_symbols(const Reread& reread);
  // Return the line of the first row of each duplicated (symbol, date), read again.
  std::map<RowKey, std::int64_t> first_lines_of_duplicates(const Reread& reread) const;
  // Add a problem per duplicated row to `problems`, keeping them sorted by line.
  void add_duplicate_problems(const Reread& reread, std::vector<RowProblem>& problems) const;
  // Settle each symbol's factors as `settlement` says and save what the store keeps of it, with
  // `source`; count its factor steps and name it on `report`.
  void settle_symbols(const FactorSettlement& settlement,
                      const Reread& reread,
                      const std::string& source,
                      ImportReport& report);
  // Derive the change_pct of `symbol`'s rows where needed, save its summary and its `source`.
  void save_symbol(const std::string& symbol,
                   const SymbolState& state,
                   const FactorSettlement& settlement,
                   const std::string& source);
  // Return the symbols in name order, for the final pass (so that its first refusal, and its
  // writes, do not depend on hashing).
  std::vector<std::pair<const std::string*, const SymbolState*>> symbols_in_order() const;
  // Record the change under `source` and commit; note the rows loaded on `report`.
  void commit(const std::string& source, ImportReport& report);

  store::BarStore& m_store;
  const ImportOptions& m_options;
  std::function<double()> m_fraction_read;
  store::WriteTransaction m_transaction;
  // By symbol; hashed, since a fetch's rows come a day, not a symbol, at a time.
  std::unordered_map<std::string, SymbolState> m_symbols;
  SymbolState* m_last_state = nullptr;          // rows usually come grouped by symbol
  const std::string* m_last_symbol = nullptr;
  std::vector<Duplicate> m_duplicates;
  // Set at the first row: whether rows are held in groups to be chained (SymbolState::chained).
  std::optional<bool> m_chaining;
  std::vector<ParsedRow> m_group; // rows of one symbol, as they came, at most k_max_group
  std::int64_t m_rows = 0;
  bool m_every_pre_close = true;
  bool m_every_change_pct = true;
  bool m_some_change_pct = false;
};

} // namespace ashare::import
