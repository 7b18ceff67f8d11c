// The PostgreSQL schemas of the stores (issue 14) and their migrations, recorded in one table
// (ashare_schema: a version per store) and applied under an advisory lock, so that replicas
// starting together migrate once. Stores may share a database: their tables have names of their
// own.
#pragma once

#include "core/store/postgres/connection.hpp"

namespace ashare::store::postgres {

enum class SchemaKind { keys, data };

// Return the schema version this build writes for `kind`.
int current_schema_version(SchemaKind kind);

// Bring the database of `connection` to the current schema of `kind`. Throws std::runtime_error
// for a database whose schema is newer than this build's.
void migrate(Connection& connection, SchemaKind kind);

// Bring it to schema `version` (at most the current one): how a test makes a store as an older
// ashare left it.
void migrate(Connection& connection, SchemaKind kind, int version);

} // namespace ashare::store::postgres
