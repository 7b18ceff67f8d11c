#include "core/store/bar_store.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/bar_store.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <limits>

namespace ashare::store {

std::string_view price_field_name(PriceField field) {
  switch (field) {
  case PriceField::open:
    return "open";
  case PriceField::high:
    return "high";
  case PriceField::low:
    return "low";
  case PriceField::close:
    return "close";
  }
  return "";
}

void add_meta_row(DatasetInfo& info, std::string_view key, const std::string& value) {
  if (key == "as_of") {
    info.as_of = domain::Date::from_yyyymmdd(std::stoll(value));
  } else if (key == "source") {
    info.source = value;
  } else if (key == "generation") {
    info.generation = std::stoll(value);
  } else if (key == "store_id") {
    info.store_id = value;
  }
}

std::unique_ptr<BarStore> open_bar_store(const std::string& locator) {
  if (is_postgres_locator(locator)) {
    return std::make_unique<postgres::PostgresBarStore>(locator);
  }
  return std::make_unique<SqliteBarStore>(locator);
}

Result<BarCopy> copy_bars(BarStore& from,
                          BarStore& to,
                          const std::function<void(std::int64_t, std::int64_t)>& progress) {
  ReadTransaction snapshot(from);
  const auto dataset = from.load_dataset_info();
  const auto symbols = from.load_symbols();
  WriteTransaction transaction(to);
  if (const auto there = to.load_symbols(); !there.empty()) {
    return Error{ErrorCode::invalid_input,
                 "the destination already holds bars of " + std::to_string(there.size())
                   + (there.size() == 1 ? " symbol" : " symbols")
                   + ": copy into an empty store, so that it holds exactly the source's bars"};
  }
  BarCopy copied;
  std::int64_t total = 0;
  for (const auto& info : symbols) {
    total += info.bar_count;
  }
  const auto first = domain::Date::from_ymd(1, 1, 1).value();
  const auto last = domain::Date::from_ymd(9999, 12, 31).value();
  for (const auto& info : symbols) {
    const auto derived = from.load_derived_dates(info.symbol);
    auto next_derived = derived.begin();
    for (const auto& bar : from.load_bars(info.symbol, first, last, domain::SortOrder::asc,
                                          std::numeric_limits<std::int64_t>::max())) {
      const bool is_derived = next_derived != derived.end() && *next_derived == bar.trade_date;
      next_derived += is_derived ? 1 : 0;
      to.insert_bar(info.symbol, bar, is_derived);
      ++copied.bars;
    }
    to.save_symbol_summary(info.symbol, info.first_date, info.last_date, info.bar_count,
                           info.latest_factor);
    if (!info.source.empty() || !info.factor_origin.empty()) { // else unknown: left unrecorded
      to.save_symbol_source(info.symbol, {info.source, info.factor_origin, info.adjusted});
    }
    ++copied.symbols;
    if (progress) {
      progress(copied.bars, total);
    }
  }
  copy_market_record(from.market(), to.market());
  to.finish_change(dataset.source); // after the ledger: as_of follows it (D18)
  transaction.commit();
  return copied;
}

ReadTransaction::ReadTransaction(BarStore& store) : m_store(store) { m_store.begin_read(); }

ReadTransaction::~ReadTransaction() { m_store.end_read(); }

WriteTransaction::WriteTransaction(BarStore& store) : m_store(store) { m_store.begin_write(); }

WriteTransaction::~WriteTransaction() {
  if (!m_done) {
    m_store.rollback_write();
  }
}

void WriteTransaction::commit() {
  m_store.commit_write();
  m_done = true;
}

} // namespace ashare::store
