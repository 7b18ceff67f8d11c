#include "core/store/key_store.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/key_store.hpp"
#include "core/store/sqlite_key_store.hpp"

namespace ashare::store {

std::unique_ptr<KeyStore> open_key_store(const std::string& locator) {
  if (is_postgres_locator(locator)) {
    return std::make_unique<postgres::PostgresKeyStore>(locator);
  }
  return std::make_unique<SqliteKeyStore>(locator);
}

} // namespace ashare::store
