// The SQLite schemas of the three store files and their migrations. The data store holds bars,
// symbols and dataset metadata; the key store holds API keys and credit balances, in a file of
// its own so that a long import holding the data store's write lock never stalls a credit charge;
// the cache store holds what remote mode fetched, keyed by base URL (never read in local mode).
// Also what every store connection shares: opening with the right pragmas, and telling servers
// about a commit through the store's change counter.
#pragma once

#include "core/store/change_counter.hpp"

#include <filesystem>
#include <memory>
#include <SQLiteCpp/Database.h>

namespace ashare::store {

enum class StoreKind { data, keys, cache };

// Return the schema version this build writes for `kind` (PRAGMA user_version).
int current_schema_version(StoreKind kind);

// Open the database at `path` (creating it and its parent directories), set the pragmas every
// connection needs (WAL, busy_timeout, synchronous=NORMAL) and migrate it to the current schema.
// Throws SQLite::Exception on I/O failure and std::runtime_error for a store newer than this build.
SQLite::Database open_database(const std::filesystem::path& path, StoreKind kind);

// Bring the store `db` to schema `version` (at most the current one), as open_database() brings
// it to the current one: how a test makes a store as an older ashare left it.
void migrate_to(SQLite::Database& db, StoreKind kind, int version);

// Bump the change counter of the store `db` after a commit that servers must see, opening it into
// `counter` on first use. An in-memory store has no counter (and no other process to tell).
void announce_change(SQLite::Database& db, std::unique_ptr<ChangeCounter>& counter);

} // namespace ashare::store
