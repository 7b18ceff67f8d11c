#include "core/store/schema.hpp"

#include <SQLiteCpp/Transaction.h>
#include <span>
#include <stdexcept>
#include <string>

namespace ashare::store {
namespace {

// Migration i (1-based) brings a store from user_version i-1 to i. Append, never edit.
constexpr const char* k_data_migrations[] = {
  R"sql(
    CREATE TABLE meta(
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE symbols(
      symbol        TEXT PRIMARY KEY,
      first_date    INTEGER NOT NULL,  -- YYYYMMDD
      last_date     INTEGER NOT NULL,  -- YYYYMMDD
      bar_count     INTEGER NOT NULL,
      latest_factor REAL NOT NULL      -- factor of the latest bar, the anchor of D8
    ) WITHOUT ROWID;
    CREATE TABLE bars(
      symbol             TEXT NOT NULL,
      trade_date         INTEGER NOT NULL,  -- YYYYMMDD
      open               REAL NOT NULL,     -- raw CNY
      high               REAL NOT NULL,
      low                REAL NOT NULL,
      close              REAL NOT NULL,
      volume             INTEGER NOT NULL,  -- shares
      turnover           REAL NOT NULL,     -- CNY
      change_pct         REAL NOT NULL,     -- percent units
      change_pct_derived INTEGER NOT NULL,  -- 1 when ashare computed change_pct at import
      factor             REAL NOT NULL,     -- cumulative adjustment factor
      PRIMARY KEY(symbol, trade_date)
    ) WITHOUT ROWID;
    INSERT INTO meta(key, value) VALUES ('generation', '0');
  )sql",
};

constexpr const char* k_keys_migrations[] = {
  R"sql(
    CREATE TABLE api_keys(
      id         INTEGER PRIMARY KEY,
      prefix     TEXT NOT NULL,         -- the recognisable start of the key, shown by `keys list`
      digest     BLOB NOT NULL UNIQUE,  -- SHA-256 of the whole key; the plaintext is never stored
      label      TEXT NOT NULL,
      plan       TEXT NOT NULL CHECK (plan IN ('free', 'basic', 'pro')),
      credits    INTEGER CHECK (credits IS NULL OR credits >= 0),  -- NULL: unmetered
      created_at TEXT NOT NULL,         -- UTC, ISO 8601
      revoked_at TEXT
    );
  )sql",
};

std::span<const char* const> migrations(StoreKind kind) {
  if (kind == StoreKind::data) {
    return k_data_migrations;
  }
  return k_keys_migrations;
}

int user_version(SQLite::Database& db) {
  return db.execAndGet("PRAGMA user_version").getInt();
}

void migrate(SQLite::Database& db, StoreKind kind, const std::filesystem::path& path) {
  const auto steps = migrations(kind);
  const int target = static_cast<int>(steps.size());
  if (user_version(db) == target) {
    return;
  }
  // IMMEDIATE: two processes opening a new store at once must not both apply step 1.
  SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
  const int version = user_version(db);
  if (version > target) {
    throw std::runtime_error("store " + path.string() + " has schema version "
                             + std::to_string(version) + ", newer than this ashare supports ("
                             + std::to_string(target) + ")");
  }
  for (int step = version; step < target; ++step) {
    db.exec(steps[static_cast<std::size_t>(step)]);
  }
  db.exec("PRAGMA user_version = " + std::to_string(target));
  transaction.commit();
}

} // namespace

int current_schema_version(StoreKind kind) {
  return static_cast<int>(migrations(kind).size());
}

SQLite::Database open_database(const std::filesystem::path& path, StoreKind kind) {
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path());
  }
  constexpr int k_busy_timeout_ms = 10'000;
  SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX,
                      k_busy_timeout_ms);
  db.exec("PRAGMA journal_mode = WAL");
  // NORMAL in WAL mode: commits survive a process crash; only an OS crash can lose the last ones.
  db.exec("PRAGMA synchronous = NORMAL");
  migrate(db, kind, path);
  return db;
}

} // namespace ashare::store
