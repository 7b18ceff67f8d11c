// The PostgreSQL store backend of the store-level tests (store_backend.hpp): a database of its
// own per StoreBackend on the throwaway server of scripts/with-postgres.sh, dropped afterwards.
#include "store_backend.hpp"

#include "core/store/postgres/connection.hpp"

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

namespace ashare::test {
namespace {

std::string server_uri() {
  const char* uri = std::getenv("ASHARE_TEST_POSTGRES");
  if (uri == nullptr || *uri == '\0') {
    throw std::runtime_error("ASHARE_TEST_POSTGRES is not set: run the PostgreSQL tests under "
                             "scripts/with-postgres.sh");
  }
  return uri;
}

} // namespace

struct StoreBackend::State {
  std::string server;
  std::string database;
};

StoreBackend::StoreBackend() : m_state(std::make_unique<State>()) {
  static std::atomic<int> count{0};
  m_state->server = server_uri();
  m_state->database = "ashare_test_" + std::to_string(::getpid()) + "_" + std::to_string(++count);
  store::postgres::Connection admin(m_state->server);
  admin.exec("CREATE DATABASE " + m_state->database);
}

StoreBackend::~StoreBackend() {
  try {
    store::postgres::Connection admin(m_state->server);
    admin.exec("DROP DATABASE IF EXISTS " + m_state->database + " WITH (FORCE)");
  } catch (const std::exception&) {
    // The server is going away with its directory (with-postgres.sh).
  }
}

const char* StoreBackend::name() { return "postgresql"; }

// Both stores in the one database, as `--db postgresql://...` puts them (tables of their own).
std::string StoreBackend::data_locator() const { return keys_locator(); }

std::string StoreBackend::keys_locator() const {
  // libpq reads URI parameters after the path: this dbname is the one used.
  return m_state->server + (m_state->server.find('?') == std::string::npos ? "?" : "&")
         + "dbname=" + m_state->database;
}

} // namespace ashare::test
