// The one store fixture of the unit tests (issues 14 and 34): a data store and a key store, as a
// SQLite file each in a temporary directory in ashare_unit_tests, or in a fresh PostgreSQL
// database on the server named by ASHARE_TEST_POSTGRES in ashare_postgres_tests (run by
// scripts/with-postgres.sh); both places are tests/support's (TempDir, PostgresDatabase). The same
// test sources build into both executables, each linking one backend_*.cpp. Over the stores it
// yields the Services `serve` would build, and imports fixtures.
#pragma once

#include "testutil.hpp"

#include "core/api/services.hpp"
#include "core/import/importer.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/key_store.hpp"

#include <memory>
#include <string>
#include <string_view>

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

  // Return the Services `serve` would build over the two stores.
  std::unique_ptr<api::Services> services() const {
    return std::make_unique<api::Services>(data_locator(), keys_locator());
  }

  // Make the data store as an ashare of schema `version` made it (an upgrade test's older store):
  // its migrations up to `version` only.
  void make_data_store_at(int version) const;

  // Run `sql` on the data store's database as it is (no migration): rows an older ashare wrote.
  void exec_data_sql(const std::string& sql) const;

  // Import the committed fixture `name` of tests/data (e.g. "bancob_600519.SH.csv") into the data
  // store; fails the test unless it is committed.
  import::ImportReport import_fixture(std::string_view name) const {
    const auto bars = open_bars();
    return test::import_fixture(*bars, name);
  }

  // Import canonical CSV `text` into the data store with `options`.
  import::ImportReport import_text(std::string_view text,
                                   const import::ImportOptions& options = {}) const {
    const auto bars = open_bars();
    return test::import_text(*bars, text, options);
  }

private:
  struct State;
  std::unique_ptr<State> m_state;
};

} // namespace ashare::test
