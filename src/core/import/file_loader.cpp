#include "core/import/file_loader.hpp"

#include "core/domain/kind.hpp"
#include "core/import/factors.hpp"

#include <algorithm>
#include <limits>

namespace ashare::import {
namespace {

// Factors of the Tushare scale (a file's own column, adj_factor) mix with each other, not with a
// chain that starts at 1 or with no factors at all.
bool same_factor_scale(std::string_view stored, FactorOrigin incoming) {
  const auto name = factor_origin_name(incoming);
  if (stored.empty() || stored == "none" || name == "none" || stored == name) {
    return true; // unit factors: the stored_non_unit_factor check guards the one harmful case
  }
  auto tushare_scale = [](std::string_view origin) {
    return origin == "file" || origin == "adj_factor";
  };
  return tushare_scale(stored) && tushare_scale(name);
}

std::int64_t count_factor_steps(std::span<const ParsedRow> rows) {
  std::int64_t steps = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    steps += rows[i].bar.factor != rows[i - 1].bar.factor ? 1 : 0;
  }
  return steps;
}

// A group's rows are held in memory: a symbol's whole history is a few thousand; beyond this the
// symbol's rows are handled as if they came apart (SymbolState::split).
constexpr std::size_t k_max_group = 65'536;

} // namespace

FileLoader::FileLoader(store::BarStore& store,
                       const ImportOptions& options,
                       std::function<double()> fraction_read)
    : m_store(store), m_options(options), m_fraction_read(std::move(fraction_read)),
      m_transaction(store) {
  m_store.clear_staged_pre_close();
}

FileLoader::SymbolState& FileLoader::state_of(const std::string& symbol, const ParsedFile& file) {
  if (m_last_symbol != nullptr && *m_last_symbol == symbol) {
    return *m_last_state;
  }
  auto [it, inserted] = m_symbols.try_emplace(symbol);
  if (inserted) {
    // Asked before the file's rows are written: they would hide the answers.
    // A symbol has a row in `symbols` exactly while it has bars (refresh_symbol keeps it so).
    it->second.stored = m_store.find_symbol(symbol);
    it->second.new_to_store = !it->second.stored;
    it->second.unit_factor = domain::classify_code(symbol).kind == domain::Kind::index;
    if ((!file.has_factor || it->second.unit_factor) && !it->second.new_to_store) {
      it->second.stored_non_unit_factor = m_store.has_non_unit_factor(symbol);
    }
  }
  m_last_symbol = &it->first;
  m_last_state = &it->second;
  return it->second;
}

void FileLoader::add(ParsedRow&& row, const ParsedFile& file) {
  ++m_rows;
  m_every_pre_close = m_every_pre_close && row.pre_close.has_value();
  if (!m_chaining) {
    m_chaining = !file.has_factor && !m_options.adjusted_input;
  }
  if (*m_chaining && !row.pre_close) {
    write_group();
    m_chaining = false; // not a chain: finish() gives the chained groups their factors back
  }
  auto& state = state_of(row.symbol, file);
  if (state.unit_factor) {
    row.bar.factor = 1;
  }
  const auto date = row.bar.trade_date;
  if (!state.dates.insert(date)) {
    m_duplicates.push_back({row.line, {row.symbol, date.yyyymmdd()}});
    return;
  }
  ++state.rows;
  const bool first_row = state.first_line == 0;
  if (!first_row && date < state.last) {
    state.in_date_order = false;
  }
  if (!first_row && row.bar.factor != state.last_factor) {
    ++state.factor_steps;
  }
  state.last_factor = row.bar.factor;
  if (first_row || date < state.first) {
    state.first = date;
    state.first_line = row.line;
  }
  if (first_row || date > state.last) {
    state.last = date;
  }
  m_every_change_pct = m_every_change_pct && row.has_change_pct;
  m_some_change_pct = m_some_change_pct || row.has_change_pct;
  if (*m_chaining) {
    if (!m_group.empty() && (m_group.front().symbol != row.symbol || m_group.size() >= k_max_group)) {
      write_group();
    }
    if (m_group.empty() && state.chained) {
      state.split = true;
    }
    m_group.push_back(std::move(row));
  } else {
    write_row(row, state);
  }
  if (m_options.progress && m_rows % 4096 == 0) {
    m_options.progress(m_rows, m_fraction_read ? m_fraction_read() : 0.0);
  }
}

void FileLoader::write_row(const ParsedRow& row, const SymbolState& state) {
  // Past the symbol's stored history no bar can be in the way: an insert, which SQLite places
  // without looking for a conflict first (a day appended by a fetch or a daily file).
  if (state.new_to_store || state.stored->last_date < row.bar.trade_date) {
    m_store.insert_bar(row.symbol, row.bar, !row.has_change_pct);
  } else {
    m_store.upsert_bar(row.symbol, row.bar, !row.has_change_pct);
  }
}

void FileLoader::write_group() {
  if (m_group.empty()) {
    return;
  }
  auto& state = m_symbols.at(m_group.front().symbol);
  std::sort(m_group.begin(), m_group.end(), [](const ParsedRow& a, const ParsedRow& b) {
    return a.bar.trade_date < b.bar.trade_date;
  });
  if (state.unit_factor) {
    state.factor_steps = 0; // an index: its rows keep factor 1, no chain
  } else {
    // As settle_symbol chains: from the stored bar before the first (not yet this file's).
    const auto previous =
      m_store.find_bar_before(m_group.front().symbol, m_group.front().bar.trade_date);
    // From now on the symbol's steps and latest factor are those of its rows as written, chained.
    state.factor_steps =
      chain_factors(m_group, previous ? chain_start(*previous, m_group.front()) : 1.0);
  }
  state.last_factor = m_group.back().bar.factor;
  state.chained = true;
  for (const auto& row : m_group) {
    write_row(row, state);
  }
  m_group.clear();
}

void FileLoader::stage_split_symbols(const Reread& reread) {
  reread([this](const ParsedRow& row) {
    const auto it = m_symbols.find(row.symbol);
    if (it != m_symbols.end() && it->second.split && row.pre_close
        && it->second.dates.contains(row.bar.trade_date)) {
      m_store.stage_pre_close(row.symbol, row.bar.trade_date, *row.pre_close); // the first stays
    }
  });
}

FactorOrigin FileLoader::origin_of(const std::string& symbol,
                                   const SymbolState& state,
                                   const FactorSettlement& settlement) {
  return state.unit_factor ? FactorOrigin::none : settlement.origin_of(symbol);
}

std::optional<RowProblem> FileLoader::check_factor_scale(const std::string& symbol,
                                                         const SymbolState& state,
                                                         const FactorSettlement& settlement) {
  const auto origin = factor_origin_name(origin_of(symbol, state, settlement));
  if (state.unit_factor && state.stored_non_unit_factor) {
    return RowProblem{state.first_line, "factor",
                      "the store holds factors other than 1 for " + symbol
                        + ", an index, whose factor is 1 on every bar (D20): run `ashare remove "
                        + symbol + "` and import it again"};
  }
  if (origin_of(symbol, state, settlement) == FactorOrigin::none && state.stored_non_unit_factor) {
    return RowProblem{state.first_line, "factor",
                      "the file has no factors, but the store holds factors other than 1 for "
                          + symbol
                          + ": importing it would rescale that history; add factors "
                            "(a factor column, or --adj-factor FILE)"};
  }
  const auto& stored = state.stored;
  const bool chains = settlement.chain_from_store && !state.unit_factor;
  const bool same_scale =
    !stored || same_factor_scale(stored->factor_origin, origin_of(symbol, state, settlement));
  if (!stored || (same_scale && !chains)
      || !m_store.has_bars_outside(symbol, state.first, state.last)) {
    return std::nullopt; // nothing to mix with, or the file's own rows all lie within [first, last]
  }
  if (!same_scale) {
    return RowProblem{state.first_line, "factor",
                      "the store holds " + symbol
                          + " bars outside this file's dates whose "
                            "factors came from "
                          + stored->factor_origin + ", and this file's come from "
                          + std::string(origin)
                          + ": mixing them would break forward adjustment; run "
                            "`ashare remove "
                          + symbol + "` first, or import it the same way"};
  }
  if (chains && !m_store.find_bar_before(symbol, state.first)) {
    return RowProblem{state.first_line, "factor",
                      "the store holds later bars of " + symbol
                          + " that a pre_close chain starting at " + state.first.iso()
                          + " cannot reach: import the older file first, or run `ashare remove "
                          + symbol + "` and import every file"};
  }
  return std::nullopt;
}

bool FileLoader::written_final(const SymbolState& state, const FactorSettlement& settlement) {
  return state.chained ? settlement.chain_from_store && !state.split
                       : !settlement.chain_from_store && state.in_date_order;
}

std::int64_t FileLoader::settle_symbol(const std::string& symbol,
                                       const SymbolState& state,
                                       const FactorSettlement& settlement) {
  const bool mark_derived = !m_every_change_pct && m_some_change_pct;
  const bool as_written = written_final(state, settlement);
  if (as_written && !mark_derived) {
    return state.factor_steps; // nothing to change, and the steps were counted as rows came
  }
  // Else chained here, every row, or given back the file's factors (1) when the file turned out
  // not to be a chain.
  const bool chain = settlement.chain_from_store && !as_written && !state.unit_factor;
  const bool unchain = !settlement.chain_from_store && state.chained;
  // The file's rows of the symbol, in date order, as stored (bars of other files in between are
  // left out).
  std::vector<ParsedRow> rows;
  for (auto& bar : m_store.load_bars(symbol, state.first, state.last, domain::SortOrder::asc,
                                     std::numeric_limits<std::int64_t>::max())) {
    if (state.dates.contains(bar.trade_date)) {
      ParsedRow row;
      row.bar = bar;
      rows.push_back(std::move(row));
    }
  }
  std::vector<double> stored;
  for (const auto& row : rows) {
    stored.push_back(row.bar.factor);
  }
  if (chain && !rows.empty()) {
    const auto staged = m_store.load_staged_pre_close(symbol);
    std::size_t next = 0;
    for (auto& row : rows) { // both ascending by date
      while (next < staged.size() && staged[next].first < row.bar.trade_date) {
        ++next;
      }
      if (next < staged.size() && staged[next].first == row.bar.trade_date) {
        row.pre_close = staged[next].second;
      }
    }
    const auto previous = m_store.find_bar_before(symbol, state.first);
    chain_factors(rows, previous ? chain_start(*previous, rows.front()) : 1.0);
  }
  if (unchain) {
    for (auto& row : rows) {
      row.bar.factor = 1; // a file without factors: every factor is the default 1
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].bar.factor != stored[i]) { // most chains stay at 1 for long stretches
      m_store.save_factor(symbol, rows[i].bar.trade_date, rows[i].bar.factor);
    }
  }
  if (mark_derived) {
    // A file's change_pct is its own only when every row has one (as a ParsedFile says).
    for (const auto& row : rows) {
      m_store.mark_change_pct_derived(symbol, row.bar.trade_date);
    }
  }
  return count_factor_steps(rows);
}

std::map<RowKey, std::int64_t> FileLoader::first_lines_of_duplicates(const Reread& reread) const {
  std::set<RowKey> keys;
  for (const auto& duplicate : m_duplicates) {
    keys.insert(duplicate.key);
  }
  std::map<RowKey, std::int64_t> lines;
  reread([&](const ParsedRow& row) {
    RowKey key{row.symbol, row.bar.trade_date.yyyymmdd()};
    if (keys.count(key) != 0) {
      lines.emplace(std::move(key), row.line); // the first stays
    }
  });
  return lines;
}

void FileLoader::add_duplicate_problems(const Reread& reread,
                                        std::vector<RowProblem>& problems) const {
  if (m_duplicates.empty()) {
    return;
  }
  const auto lines = first_lines_of_duplicates(reread);
  for (const auto& [line, key] : m_duplicates) {
    const auto date = *domain::Date::from_yyyymmdd(key.second);
    const auto first = lines.find(key);
    problems.push_back(
        RowProblem{line, "trade_date",
                   "duplicate row for " + key.first + " on " + date.iso() + " (first on line "
                       + std::to_string(first == lines.end() ? 0 : first->second) + ")"});
  }
  std::stable_sort(problems.begin(), problems.end(),
                   [](const RowProblem& a, const RowProblem& b) { return a.line < b.line; });
}

void FileLoader::save_symbol(const std::string& symbol,
                             const SymbolState& state,
                             const FactorSettlement& settlement,
                             const std::string& source) {
  // Rows written before a derived change_pct change what it derives from: only a new symbol
  // whose every change_pct is the file's own has none.
  // Nor has a symbol whose rows, each with its own change_pct, all follow its stored bars.
  const bool appended = state.stored && state.stored->last_date < state.first;
  if (!((state.new_to_store || appended) && m_every_change_pct)) {
    m_store.recompute_change_pct(symbol, state.first, state.last);
  }
  if (state.new_to_store && written_final(state, settlement)) {
    // Its bars are the file's rows as written: no need to read them back.
    m_store.save_symbol_summary(symbol, state.first, state.last, state.rows, state.last_factor);
  } else if (state.stored && state.stored->last_date < state.first && written_final(state, settlement)) {
    // The file's rows follow the stored ones (a day fetched, a later file): the summary grows.
    m_store.save_symbol_summary(symbol, state.stored->first_date, state.last,
                                state.stored->bar_count + state.rows, state.last_factor);
  } else {
    m_store.refresh_symbol(symbol);
  }
  const auto origin = std::string(factor_origin_name(origin_of(symbol, state, settlement)));
  if (!state.stored || state.stored->source != source || state.stored->factor_origin != origin
      || state.stored->adjusted != settlement.adjusted_input) {
    m_store.save_symbol_source(symbol, store::SymbolSource{source, origin, settlement.adjusted_input});
  }
}

void FileLoader::settle_symbols(const FactorSettlement& settlement,
                                const Reread& reread,
                                const std::string& source,
                                ImportReport& report) {
  if (settlement.chain_from_store
      && std::any_of(m_symbols.begin(), m_symbols.end(),
                     [](const auto& entry) { return entry.second.split; })) {
    stage_split_symbols(reread);
  }
  for (const auto& [symbol, state] : symbols_in_order()) {
    report.adjustment_events += settle_symbol(*symbol, *state, settlement);
    save_symbol(*symbol, *state, settlement, source);
    report.symbols.insert(report.symbols.end(), *symbol);
  }
}

std::vector<std::pair<const std::string*, const FileLoader::SymbolState*>>
FileLoader::symbols_in_order() const {
  std::vector<std::pair<const std::string*, const SymbolState*>> out;
  out.reserve(m_symbols.size());
  for (const auto& [symbol, state] : m_symbols) {
    out.emplace_back(&symbol, &state);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
  return out;
}

void FileLoader::commit(const std::string& source, ImportReport& report) {
  m_store.clear_staged_pre_close();
  if (m_options.before_commit) {
    m_options.before_commit(m_store);
  }
  m_store.finish_change(source);
  report.as_of = m_store.load_dataset_info().as_of;
  m_transaction.commit();
  report.rows_loaded = m_rows - static_cast<std::int64_t>(m_duplicates.size());
  if (m_options.progress) {
    m_options.progress(report.rows_loaded, 1.0);
  }
  report.committed = true;
}

ImportReport FileLoader::finish(const ParsedFile& file,
                                const FactorSettlement& settlement,
                                const Reread& reread,
                                ImportReport report) {
  write_group();
  report.problems = file.problems;
  report.suspended_skipped = file.suspended_skipped;
  report.factor_origin = settlement.origin;
  add_duplicate_problems(reread, report.problems);
  if (!report.problems.empty() && !m_options.skip_invalid) {
    return report; // the transaction rolls back
  }
  report.rows_skipped = static_cast<std::int64_t>(report.problems.size());
  if (m_symbols.empty()) {
    // D16: an import that loads no row (a header alone, every row skipped) changes nothing, its
    // recorded source and the generation included: the transaction rolls back. Not a refusal:
    // an empty daily file is normal for a cron job on a holiday.
    report.as_of = m_store.load_dataset_info().as_of;
    report.notes.push_back("no row loaded: the store is unchanged");
    report.committed = true;
    return report;
  }
  for (const auto& [symbol, state] : symbols_in_order()) {
    if (auto refusal = check_factor_scale(*symbol, *state, settlement)) {
      report.refusal = std::move(refusal);
      return report;
    }
  }
  if (std::all_of(m_symbols.begin(), m_symbols.end(),
                  [](const auto& entry) { return entry.second.unit_factor; })) {
    report.factor_origin = FactorOrigin::none; // indices alone: no factors, whatever the file had
  }
  const std::string source =
      m_options.source.empty() ? std::string(source_format_name(report.format)) : m_options.source;
  settle_symbols(settlement, reread, source, report);
  commit(source, report);
  return report;
}

} // namespace ashare::import
