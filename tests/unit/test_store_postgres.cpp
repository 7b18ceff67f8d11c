// What only the PostgreSQL stores have (issue 14): migrations under an advisory lock, change
// notifications, a connection whose server went away. Runs in ashare_postgres_tests.
#include "store_backend.hpp"

#include "core/auth/api_key.hpp"
#include "core/store/postgres/connection.hpp"
#include "core/store/postgres/key_store.hpp"
#include "core/store/postgres/libpq.hpp"
#include "core/store/postgres/schema.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <latch>
#include <poll.h>
#include <thread>
#include <vector>

using namespace ashare;
namespace pg = store::postgres;

namespace {

store::NewKeyRecord new_key(std::string_view plaintext) {
  return store::NewKeyRecord{std::string(plaintext.substr(0, 12)), auth::key_digest(plaintext),
                             "", auth::Plan::basic, 10, "2024-01-01T00:00:00Z"};
}

// Return whether a notification on `channel` reaches `listener` within `timeout_ms`.
bool notified(pg::Connection& listener, const std::string& channel, int timeout_ms) {
  const auto& pq = pg::libpq();
  pollfd socket{pq.socket(listener.raw()), POLLIN, 0};
  for (int waited = 0; waited <= timeout_ms; waited += 10) {
    pq.consume_input(listener.raw());
    while (PGnotify* notice = pq.notifies(listener.raw())) {
      const bool match = channel == notice->relname;
      pq.freemem(notice);
      if (match) {
        return true;
      }
    }
    ::poll(&socket, 1, 10);
  }
  return false;
}

} // namespace

TEST_CASE("postgres: replicas starting together migrate the key tables once") {
  test::StoreBackend backend;
  constexpr int k_replicas = 8;
  std::latch start(k_replicas);
  std::atomic<int> failures{0};
  std::vector<std::thread> replicas;
  for (int i = 0; i < k_replicas; ++i) {
    replicas.emplace_back([&] {
      start.arrive_and_wait();
      try {
        pg::PostgresKeyStore keys(backend.keys_locator());
      } catch (const std::exception& error) {
        ++failures;
      }
    });
  }
  for (auto& replica : replicas) {
    replica.join();
  }
  CHECK(failures == 0);
  pg::Connection check(backend.keys_locator());
  const auto versions = check.exec("SELECT store, version FROM ashare_schema");
  REQUIRE(versions.rows() == 1);
  CHECK(versions.text(0, 0) == "keys");
  CHECK(versions.int64(0, 1) == pg::current_schema_version(pg::SchemaKind::keys));
  CHECK(check.exec("SELECT count(*) FROM api_keys_meta").int64(0, 0) == 1);
}

TEST_CASE("postgres: a key store newer than this build is refused, not written") {
  test::StoreBackend backend;
  { pg::PostgresKeyStore keys(backend.keys_locator()); }
  pg::Connection admin(backend.keys_locator());
  admin.exec("UPDATE ashare_schema SET version = 99 WHERE store = 'keys'");
  try {
    pg::PostgresKeyStore keys(backend.keys_locator());
    FAIL("a newer schema was opened");
  } catch (const std::runtime_error& error) {
    CHECK(std::string(error.what()).find("keys schema version 99, newer than this ashare "
                                         "supports")
          != std::string::npos);
  }
  CHECK(admin.exec("SELECT version FROM ashare_schema").int64(0, 0) == 99);
}

TEST_CASE("postgres: a key created or revoked is announced to listening servers") {
  test::StoreBackend backend;
  const auto keys = backend.open_keys();
  pg::Connection listener(backend.keys_locator());
  listener.exec("LISTEN ashare_keys");
  const auto id = keys->insert_key(new_key("ask_announced_key"));
  CHECK(notified(listener, "ashare_keys", 2000));
  CHECK(keys->charge(id, 1) == 9); // a charge is not announced: servers cache no balance
  CHECK_FALSE(notified(listener, "ashare_keys", 100));
  REQUIRE(keys->revoke(id, "2024-02-01T00:00:00Z"));
  CHECK(notified(listener, "ashare_keys", 2000));
}

TEST_CASE("postgres: a connection whose server went away says so, and a new one works (D15)") {
  test::StoreBackend backend;
  const auto keys = backend.open_keys();
  const auto id = keys->insert_key(new_key("ask_connection_lost"));
  CHECK(keys->healthy());
  pg::Connection admin(backend.keys_locator());
  admin.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
             "WHERE datname = current_database() AND pid <> pg_backend_pid()");
  CHECK_THROWS_AS(keys->load_balance(id), store::StoreUnavailable);
  CHECK_FALSE(keys->healthy());
  CHECK(backend.open_keys()->load_balance(id) == 10);
}
