#include "core/fetch/record.hpp"

namespace ashare::fetch {

void save_record(store::BarStore& store, const UnitRecord& record) {
  for (const auto& [symbol, date] : record.suspensions) {
    store.market().save_suspension(symbol, date);
  }
  for (const auto& [symbol, date] : record.marks_gone) {
    store.market().delete_absence(symbol, date);
  }
  for (const auto& absence : record.marks_new) {
    store.market().save_absence(absence);
  }
  for (const auto& row : record.ledger) {
    store.market().save_ledger_day(row);
  }
}

std::set<SymbolDay> load_absence_marks(store::BarStore& store) {
  std::set<SymbolDay> marks;
  for (auto& absence : store.market().load_absences("")) {
    marks.emplace(std::move(absence.symbol), absence.trade_date);
  }
  return marks;
}

std::optional<std::int64_t> whole_market_rows_before(store::BarStore& store,
                                                     const std::string& provider,
                                                     domain::Date day,
                                                     domain::Kind kind) {
  std::optional<std::int64_t> rows;
  for (const auto& row : store.market().load_ledger(provider)) {
    if (row.symbol.empty() && row.kind == kind && row.trade_date < day) {
      rows = row.rows; // ascending: the last one before
    }
  }
  return rows;
}

std::set<SymbolDay> load_staged(store::BarStore& store, const std::string& provider) {
  std::set<SymbolDay> staged;
  for (auto& row : store.market().load_ledger(provider)) {
    if (!row.symbol.empty()) {
      staged.emplace(std::move(row.symbol), row.trade_date);
    }
  }
  return staged;
}

std::map<domain::Date, std::int64_t> staged_bars_by_day(store::BarStore& store,
                                                        const std::string& provider,
                                                        domain::Kind kind) {
  std::map<domain::Date, std::int64_t> bars;
  for (const auto& row : store.market().load_ledger(provider)) {
    if (!row.symbol.empty() && row.kind == kind) { // D20: what the kind's day adds up
      bars[row.trade_date] += row.rows;
    }
  }
  return bars;
}

void record_whole_day(store::BarStore& store,
                      const std::string& provider,
                      domain::Date day,
                      std::int64_t bars,
                      domain::Kind kind) {
  store.market().save_ledger_day({provider, day, "", bars, kind});
  if (kind != domain::Kind::index) {
    store.market().forget_symbol_ledger_days(provider, day, kind);
  }
}

void forget_staged_day(store::BarStore& store, const std::string& provider, domain::Date day, domain::Kind kind) {
  store.market().forget_symbol_ledger_days(provider, day, kind);
}

} // namespace ashare::fetch
