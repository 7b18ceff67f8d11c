// Where the store-level tests keep their stores (issue 14): a SQLite file in a temporary
// directory in ashare_unit_tests, a fresh PostgreSQL database on the server named by
// ASHARE_TEST_POSTGRES in ashare_postgres_tests (run by scripts/with-postgres.sh); both places are
// tests/support's (TempDir, PostgresDatabase). The same test sources build into both executables,
// each linking one backend_*.cpp.
#pragma once

#include "core/store/bar_store.hpp"
#include "core/store/key_store.hpp"

#include <memory>
#include <string>

namespace ashare::test {

class StoreBackend {
public:
  // Make a new empty place for stores. The PostgreSQL backend throws (failing the test, never
  // passing it unseen) when ASHARE_TEST_POSTGRES is not set.
  StoreBackend();
  ~StoreBackend();
  StoreBackend(const StoreBackend&) = delete;
  StoreBackend& operator=(const StoreBackend&) = delete;

  // Return the backend's name: "sqlite" or "postgresql".
  static const char* name();

  // Return the data store's locator (a file path or a postgresql:// URI).
  std::string data_locator() const;

  // Open a new connection to the data store.
  std::unique_ptr<store::BarStore> open_bars() const { return store::open_bar_store(data_locator()); }

  // Return the key store's locator (a file path or a postgresql:// URI).
  std::string keys_locator() const;

  // Open a new connection to the key store.
  std::unique_ptr<store::KeyStore> open_keys() const {
    return store::open_key_store(keys_locator());
  }

private:
  struct State;
  std::unique_ptr<State> m_state;
};

} // namespace ashare::test
