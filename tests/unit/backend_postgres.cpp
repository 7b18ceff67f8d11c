// The PostgreSQL store backend of the unit tests (store_backend.hpp): a PostgresDatabase of its
// own per StoreBackend on the throwaway server of scripts/with-postgres.sh, dropped afterwards.
#include "store_backend.hpp"

#include "core/store/postgres/connection.hpp"
#include "core/store/postgres/schema.hpp"
#include "support/postgres_database.hpp"

namespace ashare::test {

struct StoreBackend::State {
  PostgresDatabase database;
};

StoreBackend::StoreBackend() : m_state(std::make_unique<State>()) {}

StoreBackend::~StoreBackend() = default;

const char* StoreBackend::name() { return "postgresql"; }

// Both stores in the one database, as `--db postgresql://...` puts them (tables of their own).
std::string StoreBackend::data_locator() const { return keys_locator(); }

std::string StoreBackend::keys_locator() const { return m_state->database.uri(); }

void StoreBackend::make_data_store_at(int version) const {
  store::postgres::Connection connection(data_locator());
  store::postgres::migrate(connection, store::postgres::SchemaKind::data, version);
}

void StoreBackend::exec_data_sql(const std::string& sql) const {
  store::postgres::Connection connection(data_locator());
  connection.exec(sql);
}

} // namespace ashare::test
