#include "core/store/bar_store.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/bar_store.hpp"
#include "core/store/sqlite_bar_store.hpp"

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

std::unique_ptr<BarStore> open_bar_store(const std::string& locator) {
  if (is_postgres_locator(locator)) {
    return std::make_unique<postgres::PostgresBarStore>(locator);
  }
  return std::make_unique<SqliteBarStore>(locator);
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
