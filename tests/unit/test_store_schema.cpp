#include "testutil.hpp"

#include "core/store/schema.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace ashare;
using store::StoreKind;

namespace {

int user_version(SQLite::Database& db) {
  return db.execAndGet("PRAGMA user_version").getInt();
}

} // namespace

TEST_CASE("store::open_database creates, migrates and configures a store") {
  test::TempDir dir;
  for (const auto kind : {StoreKind::data, StoreKind::keys}) {
    CAPTURE(std::string_view(kind == StoreKind::data ? "data" : "keys"));
    const auto path = dir / (kind == StoreKind::data ? "nested/dirs/ashare.db" : "ashare-keys.db");
    auto db = store::open_database(path, kind);
    CHECK(std::filesystem::exists(path)); // parent directories are created

    // user_version is the current schema version.
    CHECK(store::current_schema_version(kind) >= 1);
    CHECK(user_version(db) == store::current_schema_version(kind));
    // WAL mode and a busy timeout on every connection.
    CHECK(db.execAndGet("PRAGMA journal_mode").getString() == "wal");
    CHECK(db.execAndGet("PRAGMA busy_timeout").getInt() > 0);
    auto second = store::open_database(path, kind);
    CHECK(second.execAndGet("PRAGMA busy_timeout").getInt() > 0);
  }
}

TEST_CASE("store schema: tables of the data store") {
  test::TempDir dir;
  auto db = store::open_database(dir / "ashare.db", StoreKind::data);
  // bars is a WITHOUT ROWID table keyed by (symbol_id, trade_date).
  CHECK_THROWS_AS(db.exec("SELECT rowid FROM bars"), SQLite::Exception);
  db.exec("INSERT INTO bars VALUES (1, 20240102, 1, 1, 1, 1, 100, 100, 0, 0, 1)");
  CHECK_THROWS_AS(db.exec("INSERT INTO bars VALUES (1, 20240102, 2, 2, 2, 2, 100, 100, 0, 0, 1)"),
                  SQLite::Exception);
  // The number columns keep what they are given: no affinity turns 1.5 into 15000 or back.
  db.exec("INSERT INTO bars VALUES (1, 20240103, 15000, 1.5, 1, 1, 100, 100, 0, 0, 1)");
  CHECK(db.execAndGet("SELECT typeof(open) || typeof(high) FROM bars WHERE trade_date = 20240103")
          .getString()
        == "integerreal");
  db.exec("INSERT INTO symbol_ids(symbol) VALUES ('600519.SH')");
  CHECK_THROWS_AS(db.exec("INSERT INTO symbol_ids(symbol) VALUES ('600519.SH')"), SQLite::Exception);
  CHECK(db.execAndGet("SELECT count(*) FROM symbols").getInt() == 0);
  CHECK(db.execAndGet("SELECT value FROM meta WHERE key = 'generation'").getString() == "0");
}

TEST_CASE("store schema: the key store refuses negative balances and unknown plans") {
  test::TempDir dir;
  auto db = store::open_database(dir / "keys.db", StoreKind::keys);
  db.exec("INSERT INTO api_keys(prefix, digest, label, plan, credits, created_at) "
          "VALUES ('ask_', x'00', '', 'free', 0, '2024-01-01T00:00:00Z')");
  CHECK_THROWS_AS(db.exec("UPDATE api_keys SET credits = -1"), SQLite::Exception);
  CHECK_THROWS_AS(db.exec("INSERT INTO api_keys(prefix, digest, label, plan, credits, created_at) "
                          "VALUES ('ask_', x'01', '', 'gold', 0, '2024-01-01T00:00:00Z')"),
                  SQLite::Exception);
}

TEST_CASE("store schema: reopening is idempotent") {
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  {
    store::SqliteBarStore bars(path);
    store::WriteTransaction transaction(bars);
    bars.upsert_bar("600519.SH", test::make_bar("2024-01-02", 10, 11, 9, 10.5), false);
    bars.refresh_symbol("600519.SH");
    bars.finish_change("first");
    transaction.commit();
  }
  const auto before = test::dump_store(path);
  for (int i = 0; i < 3; ++i) {
    auto db = store::open_database(path, StoreKind::data);
    CHECK(user_version(db) == store::current_schema_version(StoreKind::data));
  }
  CHECK(test::dump_store(path) == before);
}

TEST_CASE("store schema: an empty SQLite file (user_version 0) is migrated") {
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  {
    SQLite::Database raw(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec("CREATE TABLE unrelated(x)");
  }
  auto db = store::open_database(path, StoreKind::data);
  CHECK(user_version(db) == store::current_schema_version(StoreKind::data));
  CHECK(db.tableExists("bars"));
  CHECK(db.tableExists("unrelated"));
}

TEST_CASE("store schema: a store newer than this build is refused") {
  test::TempDir dir;
  for (const auto kind : {StoreKind::data, StoreKind::keys}) {
    const auto path = dir / (kind == StoreKind::data ? "ashare.db" : "ashare-keys.db");
    const int newer = store::current_schema_version(kind) + 1;
    {
      auto db = store::open_database(path, kind);
      db.exec("PRAGMA user_version = " + std::to_string(newer));
    }
    std::string message;
    try {
      (void)store::open_database(path, kind);
    } catch (const std::runtime_error& error) {
      message = error.what();
    }
    CHECK(message
          == "store " + path.string() + " has schema version " + std::to_string(newer)
                 + ", newer than this ashare supports ("
                 + std::to_string(store::current_schema_version(kind)) + ")");
    // The refusal leaves the store as it was.
    SQLite::Database raw(path, SQLite::OPEN_READONLY);
    CHECK(user_version(raw) == newer);
  }
}

TEST_CASE("store schema: concurrent first opens migrate once") {
  // Switching a new file to WAL used to fail now and then with "database is locked" (about 1 open
  // in 150): 50 rounds of 6 threads make that visible here.
  for (int round = 0; round < 50; ++round) {
    CAPTURE(round);
    test::TempDir dir;
    const auto path = dir / "ashare.db";
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; ++i) {
      threads.emplace_back([&] {
        try {
          store::SqliteBarStore bars(path);
        } catch (const std::exception&) {
          ++failures;
        }
      });
    }
    for (auto& thread : threads) {
      thread.join();
    }
    REQUIRE(failures == 0);
    auto db = store::open_database(path, StoreKind::data);
    CHECK(user_version(db) == store::current_schema_version(StoreKind::data));
    CHECK(db.execAndGet("SELECT count(*) FROM meta WHERE key = 'generation'").getInt() == 1);
  }
}

TEST_CASE("store schema 5: an old store migrates and gets the shipped calendar (D19)") {
  // tests/data/store_v2/store_v2.db was written by ashare at schema 2 (see its README).
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  std::filesystem::copy_file(test::data_dir() / "store_v2/store_v2.db", path);
  store::SqliteBarStore store(path); // migrates 2 -> current
  CHECK(user_version(store.database()) == store::current_schema_version(StoreKind::data));
  for (const char* table : {"calendar", "listings", "suspensions", "absences", "fetch_ledger"}) {
    CAPTURE(table);
    CHECK(store.database().tableExists(table));
  }
  const auto span = store.market().load_calendar_span();
  REQUIRE(span);
  CHECK(span->first.iso() == "1990-12-19");
  CHECK(span->second.iso() == "2026-12-31");
  CHECK(store.database().execAndGet("SELECT count(*) FROM calendar").getInt64()
        == (span->second.days() - span->first.days()).count() + 1);
  CHECK(!store.load_symbols().empty()); // the bars stay
  CHECK(store.market().load_ledger("").empty());
}

TEST_CASE("store schema 5: a calendar already held is kept on reopening") {
  test::TempDir dir;
  const auto path = dir / "ashare.db";
  {
    store::SqliteBarStore store(path);
    store::WriteTransaction transaction(store);
    store.market().save_calendar(test::date("2024-02-12"), test::date("2024-02-12"),
                                 {test::date("2024-02-12")});
    transaction.commit();
  }
  store::SqliteBarStore again(path);
  CHECK(again.market().load_open_days(test::date("2024-02-12"), test::date("2024-02-12")).size() == 1);
}
