// The SQLite store backend of the unit tests (store_backend.hpp): two files in a TempDir.
#include "store_backend.hpp"

#include "core/store/schema.hpp"
#include "support/temp_dir.hpp"

#include <SQLiteCpp/Database.h>

namespace ashare::test {

struct StoreBackend::State {
  TempDir dir{"ashare-unit"};
};

StoreBackend::StoreBackend() : m_state(std::make_unique<State>()) {}

StoreBackend::~StoreBackend() = default;

const char* StoreBackend::name() { return "sqlite"; }

std::string StoreBackend::data_locator() const { return (m_state->dir / "ashare.db").string(); }

std::string StoreBackend::keys_locator() const {
  return (m_state->dir / "ashare-keys.db").string();
}

void StoreBackend::make_data_store_at(int version) const {
  SQLite::Database db(data_locator(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  store::migrate_to(db, store::StoreKind::data, version);
}

void StoreBackend::exec_data_sql(const std::string& sql) const {
  SQLite::Database db(data_locator(), SQLite::OPEN_READWRITE);
  db.exec(sql);
}

} // namespace ashare::test
