#include "core/store/schema.hpp"

#include "core/domain/shipped_bj_codes.hpp"
#include "core/store/calendar_days.hpp"
#include "core/store/private_files.hpp"
#include "core/store/stored_kind.hpp"
#include "core/store/stored_number.hpp"

#include <SQLiteCpp/Transaction.h>
#include <algorithm>
#include <chrono>
#include <sqlite3.h>
#include <thread>
#include <span>
#include <stdexcept>
#include <string>

namespace ashare::store {
namespace {

// A schema step: SQL, then what SQL cannot do exactly (nullptr when nothing).
struct Migration {
  const char* sql;
  void (*then)(SQLite::Database&) = nullptr;
};

// Fill compact_bars from bars with every number in its stored form (store/stored_number.hpp),
// bit for bit, then let it take the name bars.
void move_to_compact_bars(SQLite::Database& db) {
  SQLite::Statement select(
    db, "SELECT i.id, b.trade_date, b.open, b.high, b.low, b.close, b.volume, b.turnover, "
        "b.change_pct, b.change_pct_derived, b.factor "
        "FROM bars b JOIN symbol_ids i ON i.symbol = b.symbol ORDER BY b.symbol, b.trade_date");
  SQLite::Statement insert(db, "INSERT INTO compact_bars VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                               "?9, ?10, ?11)");
  while (select.executeStep()) {
    insert.reset();
    for (int column = 0; column < 11; ++column) {
      const auto value = select.getColumn(column);
      const bool is_number = column >= 2 && column != 6 && column != 9; // not id, date, volume, flag
      if (is_number) {
        bind_number(insert, column + 1, value.getDouble());
      } else {
        insert.bind(column + 1, value.getInt64());
      }
    }
    insert.exec();
  }
  db.exec("DROP TABLE bars; ALTER TABLE compact_bars RENAME TO bars;");
}

// D19: give a store whose calendar is empty the shipped one, every day of its span.
void seed_shipped_calendar(SQLite::Database& db) {
  if (db.execAndGet("SELECT count(*) FROM calendar").getInt64() != 0) {
    return;
  }
  SQLite::Statement insert(db, "INSERT INTO calendar(trade_date, is_open) VALUES (?1, ?2)");
  for (const auto& day : shipped_calendar_days()) {
    insert.reset();
    insert.bind(1, day.yyyymmdd);
    insert.bind(2, day.is_open ? 1 : 0);
    insert.exec();
  }
}

// D19: give a store without aliases the shipped Beijing code change (old code -> 920xxx code).
void seed_shipped_aliases(SQLite::Database& db) {
  if (db.execAndGet("SELECT count(*) FROM code_aliases").getInt64() != 0) {
    return;
  }
  SQLite::Statement insert(db, "INSERT INTO code_aliases(old_symbol, new_symbol) VALUES (?1, ?2)");
  for (const auto& change : domain::shipped_bj_code_changes()) {
    insert.reset();
    insert.bind(1, domain::bj_symbol(change.old_code));
    insert.bind(2, domain::bj_symbol(change.new_code));
    insert.exec();
  }
}

// Return an SQL expression reading the YYYYMMDD integer in `column` as ISO text (2024-01-02), or
// NULL when it is NULL.
std::string iso_date_sql(const std::string& column) {
  return "(CASE WHEN " + column + " IS NULL THEN NULL ELSE printf('%04d-%02d-%02d', " + column
         + " / 10000, " + column + " / 100 % 100, " + column + " % 100) END)";
}

// Issue 34: views that read the store without knowing its encoding (store/stored_number.hpp,
// stored_date.hpp), for sqlite3, pandas and DuckDB. Each column is a CAST so that SQLite 3.41 and
// later (DuckDB's own copy among them) report its type; `docs/store.md` documents them, and
// store/postgres/schema.cpp defines the same views.
void create_reading_views(SQLite::Database& db) {
  const auto number = [](const std::string& column) {
    return "CAST(" + decoded_sql("b." + column) + " AS REAL) AS " + column;
  };
  db.exec("CREATE VIEW bars_v AS SELECT i.symbol AS symbol, CAST(" + iso_date_sql("b.trade_date")
          + " AS TEXT) AS trade_date, " + number("open") + ", " + number("high") + ", "
          + number("low") + ", " + number("close") + ", CAST(b.volume AS INTEGER) AS volume, "
          + number("turnover") + ", " + number("change_pct") + ", " + number("factor")
          + " FROM bars b JOIN symbol_ids i ON i.id = b.symbol_id");
  db.exec("CREATE VIEW symbols_v AS SELECT symbol, CAST(" + iso_date_sql("first_date")
          + " AS TEXT) AS first_date, CAST(" + iso_date_sql("last_date")
          + " AS TEXT) AS last_date, CAST(bar_count AS INTEGER) AS bar_count, "
            "CAST(latest_factor AS REAL) AS latest_factor FROM symbols");
  db.exec("CREATE VIEW calendar_v AS SELECT CAST(" + iso_date_sql("trade_date")
          + " AS TEXT) AS trade_date, CAST(is_open AS INTEGER) AS is_open FROM calendar");
  db.exec("CREATE VIEW listings_v AS SELECT symbol, name, CAST(" + iso_date_sql("list_date")
          + " AS TEXT) AS list_date, CAST(" + iso_date_sql("delist_date")
          + " AS TEXT) AS delist_date, status FROM listings");
  db.exec("CREATE VIEW suspensions_v AS SELECT symbol, CAST(" + iso_date_sql("trade_date")
          + " AS TEXT) AS trade_date FROM suspensions");
  db.exec("CREATE VIEW ledger_v AS SELECT provider, CAST(" + iso_date_sql("trade_date")
          + " AS TEXT) AS trade_date, CAST(NULLIF(symbol, '') AS TEXT) AS symbol, "
            "CAST(rows AS INTEGER) AS rows FROM fetch_ledger");
}

// D20 (issue 44): give every symbol's summary its kind, its listing's when a provider's list
// names it, else its code's (domain::classify_code: the code table stays in C++), and the
// reading views their kind columns (as create_reading_views() made them, with `kind` last).
void add_kinds(SQLite::Database& db) {
  SQLite::Statement select(db, "SELECT symbol FROM symbols");
  SQLite::Statement update(db, "UPDATE symbols SET kind = coalesce((SELECT kind FROM listings l "
                               "WHERE l.symbol = ?1), ?2) WHERE symbol = ?1");
  while (select.executeStep()) {
    const auto symbol = select.getColumn(0).getString();
    update.reset();
    update.bind(1, symbol);
    if (const auto kind = code_kind_text(symbol)) {
      update.bind(2, *kind);
    } else {
      update.bind(2);
    }
    update.exec();
  }
  db.exec("CREATE VIEW symbols_v AS SELECT symbol, CAST(" + iso_date_sql("first_date")
          + " AS TEXT) AS first_date, CAST(" + iso_date_sql("last_date")
          + " AS TEXT) AS last_date, CAST(bar_count AS INTEGER) AS bar_count, "
            "CAST(latest_factor AS REAL) AS latest_factor, CAST(kind AS TEXT) AS kind "
            "FROM symbols");
  db.exec("CREATE VIEW listings_v AS SELECT symbol, name, CAST(" + iso_date_sql("list_date")
          + " AS TEXT) AS list_date, CAST(" + iso_date_sql("delist_date")
          + " AS TEXT) AS delist_date, status, CAST(kind AS TEXT) AS kind FROM listings");
  db.exec("CREATE VIEW ledger_v AS SELECT provider, CAST(" + iso_date_sql("trade_date")
          + " AS TEXT) AS trade_date, CAST(NULLIF(symbol, '') AS TEXT) AS symbol, "
            "CAST(rows AS INTEGER) AS rows, CAST(kind AS TEXT) AS kind FROM fetch_ledger");
}

// D20 (issue 44): the reading view of index membership spans (docs/store.md), as
// create_reading_views() writes the others.
void create_members_view(SQLite::Database& db) {
  db.exec("CREATE VIEW members_v AS SELECT index_symbol, symbol, CAST(" + iso_date_sql("first_date")
          + " AS TEXT) AS first_date, CAST(" + iso_date_sql("last_date")
          + " AS TEXT) AS last_date, source FROM member_spans");
}

// Migration i (1-based) brings a store from user_version i-1 to i. Append, never edit.
constexpr Migration k_data_migrations[] = {
  {R"sql(
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
  )sql"},
  // Where each symbol's bars came from, and so what its factors mean (issue 5).
  {R"sql(
    CREATE TABLE symbol_sources(
      symbol        TEXT PRIMARY KEY,
      source        TEXT NOT NULL,  -- format of the last import, e.g. "tushare"
      factor_origin TEXT NOT NULL,  -- file, adj_factor, pre_close_chain or none
      adjusted      INTEGER NOT NULL DEFAULT 0  -- 1: prices were imported already adjusted
    ) WITHOUT ROWID;
  )sql"},
  // Compact bars (issue 11): a symbol id instead of the symbol's text in every row, and numbers
  // stored exactly but compactly (store/stored_number.hpp). The number columns have no declared
  // type on purpose: a declared one would make SQLite convert an INTEGER into a REAL or back.
  {R"sql(
    CREATE TABLE symbol_ids(
      id     INTEGER PRIMARY KEY,
      symbol TEXT NOT NULL UNIQUE       -- canonical; ids are never reused
    );
    INSERT INTO symbol_ids(symbol) SELECT DISTINCT symbol FROM bars ORDER BY symbol;
    CREATE TABLE compact_bars(
      symbol_id          INTEGER NOT NULL,  -- symbol_ids.id
      trade_date         INTEGER NOT NULL,  -- YYYYMMDD
      open               NOT NULL,          -- raw CNY
      high               NOT NULL,
      low                NOT NULL,
      close              NOT NULL,
      volume             INTEGER NOT NULL,  -- shares
      turnover           NOT NULL,          -- CNY
      change_pct         NOT NULL,          -- percent units
      change_pct_derived INTEGER NOT NULL,  -- 1 when ashare computed change_pct at import
      factor             NOT NULL,          -- cumulative adjustment factor
      PRIMARY KEY(symbol_id, trade_date)
    ) WITHOUT ROWID;
  )sql", move_to_compact_bars},
  // A random name for this store, in every ETag beside the generation (D17, issue 15): a store
  // built again from scratch reaches the same generations with other data.
  {R"sql(
    INSERT OR IGNORE INTO meta(key, value) VALUES ('store_id', lower(hex(randomblob(16))));
  )sql"},
  // D19 and D18 (issue 32): the exchange's calendar (every day of its span, open or closed: a
  // day it lacks is unknown), listings, the source's suspensions, absence marks and the fetch
  // ledger; the calendar starts as the shipped one.
  {R"sql(
    CREATE TABLE calendar(
      trade_date INTEGER PRIMARY KEY,  -- YYYYMMDD
      is_open    INTEGER NOT NULL      -- 1 open, 0 closed
    ) WITHOUT ROWID;
    CREATE TABLE listings(
      symbol      TEXT PRIMARY KEY,
      name        TEXT NOT NULL,
      list_date   INTEGER,             -- YYYYMMDD; NULL when unknown
      delist_date INTEGER,             -- YYYYMMDD; NULL while listed
      status      TEXT NOT NULL CHECK (status IN ('L', 'D', 'P'))
    ) WITHOUT ROWID;
    CREATE TABLE suspensions(
      symbol     TEXT NOT NULL,
      trade_date INTEGER NOT NULL,     -- YYYYMMDD
      PRIMARY KEY(symbol, trade_date)
    ) WITHOUT ROWID;
    CREATE TABLE absences(
      symbol     TEXT NOT NULL,
      trade_date INTEGER NOT NULL,     -- YYYYMMDD
      provider   TEXT NOT NULL,        -- asked again and has no bar either
      PRIMARY KEY(symbol, trade_date, provider)
    ) WITHOUT ROWID;
    CREATE TABLE fetch_ledger(
      provider   TEXT NOT NULL,        -- "tushare-pro" or "tdx"
      trade_date INTEGER NOT NULL,     -- YYYYMMDD
      symbol     TEXT NOT NULL,        -- '' for the whole market
      rows       INTEGER NOT NULL,     -- bars the source gave
      PRIMARY KEY(provider, trade_date, symbol)
    ) WITHOUT ROWID;
  )sql", seed_shipped_calendar},
  // D19 (issue 33): codes that became others (the Beijing exchange's 43/83/87xxxx -> 920xxx), so
  // that either code answers one series; starts as the shipped table, refreshed by fetch tushare
  // (bse_mapping).
  {R"sql(
    CREATE TABLE code_aliases(
      old_symbol TEXT PRIMARY KEY,     -- canonical, e.g. 838163.BJ
      new_symbol TEXT NOT NULL UNIQUE  -- the code it became, e.g. 920163.BJ
    ) WITHOUT ROWID;
  )sql", seed_shipped_aliases},
  // Issue 34: the reading views (create_reading_views).
  {"", create_reading_views},
  // D20 (issue 44): kinds. A listing says its list's kind (the rows before were stock_basic's);
  // the ledger is per kind (its rows before were the stocks'); a symbol's summary holds its kind
  // so that SQL reads what `ashare symbols` shows: the store writes it with the summary, a
  // listing saved with another kind updates it (the triggers), add_kinds() fills it in and
  // makes the views again with their kind columns. The views go first: SQLite checks every view
  // when a table is renamed.
  {R"sql(
    DROP VIEW symbols_v;
    DROP VIEW listings_v;
    DROP VIEW ledger_v;
    ALTER TABLE listings ADD COLUMN
      kind TEXT NOT NULL DEFAULT 'stock' CHECK (kind IN ('stock', 'index', 'fund'));
    ALTER TABLE symbols ADD COLUMN
      kind TEXT CHECK (kind IN ('stock', 'index', 'fund'));  -- NULL: a code D20 keeps out
    -- The key's columns first and in its order: SQLite 3.40's integrity_check reports NULLs in a
    -- WITHOUT ROWID table whose other columns come before one of its key's.
    CREATE TABLE fetch_ledger_d20(
      provider   TEXT NOT NULL,        -- "tushare-pro" or "tdx"
      trade_date INTEGER NOT NULL,     -- YYYYMMDD
      kind       TEXT NOT NULL DEFAULT 'stock' CHECK (kind IN ('stock', 'index', 'fund')),
      symbol     TEXT NOT NULL,        -- '' for the whole market (of that kind)
      rows       INTEGER NOT NULL,     -- bars the source gave
      PRIMARY KEY(provider, trade_date, kind, symbol)
    ) WITHOUT ROWID;
    INSERT INTO fetch_ledger_d20(provider, trade_date, symbol, rows, kind)
      SELECT provider, trade_date, symbol, rows, 'stock' FROM fetch_ledger;
    DROP TABLE fetch_ledger;
    ALTER TABLE fetch_ledger_d20 RENAME TO fetch_ledger;
    CREATE TRIGGER listings_kind_inserted AFTER INSERT ON listings BEGIN
      UPDATE symbols SET kind = NEW.kind WHERE symbol = NEW.symbol AND kind IS NOT NEW.kind;
    END;
    CREATE TRIGGER listings_kind_changed AFTER UPDATE OF kind ON listings BEGIN
      UPDATE symbols SET kind = NEW.kind WHERE symbol = NEW.symbol AND kind IS NOT NEW.kind;
    END;
  )sql", add_kinds},
  // D20 (issue 44): index membership. Tushare's snapshots as fetched (the weight as given: no
  // declared type, so the text written is the text read back, every digit, D12), and the spans
  // of each source (derived from the snapshots, or imported from announcements); members_v.
  {R"sql(
    CREATE TABLE member_snapshots(
      index_symbol TEXT NOT NULL,      -- canonical, as ashare names it (000300.SH)
      trade_date   INTEGER NOT NULL,   -- YYYYMMDD, the snapshot's day
      symbol       TEXT NOT NULL,      -- canonical, the member
      weight       NOT NULL,           -- percent, as given
      PRIMARY KEY(index_symbol, trade_date, symbol)
    ) WITHOUT ROWID;
    CREATE TABLE member_spans(
      index_symbol TEXT NOT NULL,
      source       TEXT NOT NULL CHECK (source IN ('tushare', 'import')),
      symbol       TEXT NOT NULL,
      first_date   INTEGER NOT NULL,   -- YYYYMMDD, the first open day a member
      last_date    INTEGER,            -- YYYYMMDD, the last; NULL while a member
      PRIMARY KEY(index_symbol, source, symbol, first_date)
    ) WITHOUT ROWID;
  )sql", create_members_view},
};

constexpr Migration k_keys_migrations[] = {
  {R"sql(
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
  )sql"},
  // A generation that changes exactly when what a server caches about keys changes (issue 9):
  // a key created, deleted, revoked, given another plan, or made metered or unmetered. Charges
  // and credits only move balances, which no server caches, so they leave it alone.
  {R"sql(
    CREATE TABLE meta(
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO meta(key, value) VALUES ('generation', '0');
    CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys BEGIN
      UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation';
    END;
    CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys BEGIN
      UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation';
    END;
    CREATE TRIGGER api_keys_changed AFTER UPDATE OF digest, plan, revoked_at ON api_keys BEGIN
      UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation';
    END;
    CREATE TRIGGER api_keys_metering_changed AFTER UPDATE OF credits ON api_keys
    WHEN (OLD.credits IS NULL) <> (NEW.credits IS NULL) BEGIN
      UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation';
    END;
  )sql"},
  // Keys are looked up by their public prefix, then compared by digest in constant time (issue
  // 13): the prefix needs an index of its own.
  {R"sql(
    CREATE INDEX api_keys_by_prefix ON api_keys(prefix);
  )sql"},
};

// The cache of remote mode: raw bars fetched from servers, keyed by base URL, apart from imported
// data so that local mode never serves them.
constexpr Migration k_cache_migrations[] = {
  {R"sql(
    CREATE TABLE remotes(
      base_url      TEXT PRIMARY KEY,
      as_of         INTEGER,           -- YYYYMMDD, the remote's as_of when last learned
      checked_at_ms INTEGER,           -- Unix ms of the last /healthz answer
      source        TEXT NOT NULL DEFAULT ''  -- meta.source of the remote's latest bars answer
    ) WITHOUT ROWID;
    CREATE TABLE cached_bars(
      base_url   TEXT NOT NULL,
      symbol     TEXT NOT NULL,
      trade_date INTEGER NOT NULL,     -- YYYYMMDD
      open       REAL NOT NULL,        -- raw CNY, as fetched with adjusted=false
      high       REAL NOT NULL,
      low        REAL NOT NULL,
      close      REAL NOT NULL,
      volume     INTEGER NOT NULL,     -- shares
      turnover   REAL NOT NULL,        -- CNY
      change_pct REAL NOT NULL,        -- percent units
      factor     REAL NOT NULL,        -- cumulative adjustment factor
      PRIMARY KEY(base_url, symbol, trade_date)
    ) WITHOUT ROWID;
    CREATE TABLE coverage(
      base_url      TEXT NOT NULL,
      symbol        TEXT NOT NULL,
      first_date    INTEGER NOT NULL,  -- YYYYMMDD; every remote bar of [first, last] is cached
      last_date     INTEGER NOT NULL,
      fetched_as_of INTEGER NOT NULL   -- the remote's as_of when the range was fetched
    );
    CREATE INDEX coverage_by_symbol ON coverage(base_url, symbol);
    CREATE TABLE anchors(
      base_url TEXT NOT NULL,
      symbol   TEXT NOT NULL,
      factor   REAL NOT NULL,          -- factor of the remote's latest bar of the symbol (D8)
      as_of    INTEGER NOT NULL,       -- the remote's as_of when it was learned
      PRIMARY KEY(base_url, symbol)
    ) WITHOUT ROWID;
  )sql"},
  // The source the remote reported for each symbol it served (D8, issue 12).
  {R"sql(
    CREATE TABLE symbol_sources(
      base_url TEXT NOT NULL,
      symbol   TEXT NOT NULL,
      source   TEXT NOT NULL,          -- meta.source of an answer that served this symbol
      PRIMARY KEY(base_url, symbol)
    ) WITHOUT ROWID;
  )sql"},
  // Answers kept with their ETags, sent back in If-None-Match (D17, issue 15).
  {R"sql(
    CREATE TABLE revalidations(
      base_url TEXT NOT NULL,
      target   TEXT NOT NULL,          -- path and query, as sent
      etag     TEXT NOT NULL,          -- the remote's ETag of the 200 below
      body     TEXT NOT NULL,          -- that 200's body
      PRIMARY KEY(base_url, target)
    ) WITHOUT ROWID;
  )sql"},
};

std::span<const Migration> migrations(StoreKind kind) {
  switch (kind) {
  case StoreKind::data:
    return k_data_migrations;
  case StoreKind::keys:
    return k_keys_migrations;
  case StoreKind::cache:
    return k_cache_migrations;
  }
  return {};
}

int user_version(SQLite::Database& db) {
  return db.execAndGet("PRAGMA user_version").getInt();
}

void migrate(SQLite::Database& db,
             StoreKind kind,
             const std::filesystem::path& path,
             int target) {
  const auto steps = migrations(kind);
  if (user_version(db) == target) {
    return;
  }
  // IMMEDIATE: two processes opening a new store at once must not both apply step 1.
  SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
  const int version = user_version(db);
  if (version > static_cast<int>(steps.size())) {
    throw std::runtime_error("store " + path.string() + " has schema version "
                             + std::to_string(version) + ", newer than this ashare supports ("
                             + std::to_string(steps.size()) + ")");
  }
  if (version >= target) {
    return; // another connection migrated it meanwhile (or a test asked for an older schema)
  }
  for (int step = version; step < target; ++step) {
    const auto& migration = steps[static_cast<std::size_t>(step)];
    db.exec(migration.sql);
    if (migration.then != nullptr) {
      migration.then(db);
    }
  }
  db.exec("PRAGMA user_version = " + std::to_string(target));
  transaction.commit();
}

// Run `sql` on `db`, retrying while SQLite reports the database locked, for up to `timeout_ms`.
void exec_when_unlocked(SQLite::Database& db, const char* sql, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    try {
      db.exec(sql);
      return;
    } catch (const SQLite::Exception& error) {
      if (error.getErrorCode() != SQLITE_BUSY || std::chrono::steady_clock::now() > deadline) {
        throw;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

} // namespace

int current_schema_version(StoreKind kind) {
  return static_cast<int>(migrations(kind).size());
}

void migrate_to(SQLite::Database& db, StoreKind kind, int version) {
  migrate(db, kind, db.getFilename(), std::min(version, current_schema_version(kind)));
}

void announce_change(SQLite::Database& db, std::unique_ptr<ChangeCounter>& counter) {
  if (!counter) {
    const char* file = sqlite3_db_filename(db.getHandle(), "main");
    if (file == nullptr || *file == '\0') {
      return;
    }
    counter = std::make_unique<ChangeCounter>(file);
  }
  counter->bump();
}

SQLite::Database open_database(const std::filesystem::path& path, StoreKind kind) {
  if (path.has_parent_path()) {
    create_private_directories(path.parent_path());
  }
  create_private_file(path); // before SQLite would create it 0644 (issue 13)
  constexpr int k_busy_timeout_ms = 10'000;
  SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX,
                      k_busy_timeout_ms);
  // Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once
  // instead of waiting when another connection is opening the same new store: retry for a while.
  exec_when_unlocked(db, "PRAGMA journal_mode = WAL", k_busy_timeout_ms);
  // NORMAL in WAL mode: commits survive a process crash; only an OS crash can lose the last ones.
  db.exec("PRAGMA synchronous = NORMAL");
  migrate(db, kind, path, current_schema_version(kind));
  return db;
}

} // namespace ashare::store
