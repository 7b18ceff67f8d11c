// Where a store lives (issue 14): a `postgresql://` or `postgres://` URI names a PostgreSQL
// database (libpq's URI syntax, a Unix socket directory as `host=`); anything else is the path
// of a SQLite file.
#pragma once

#include <string>
#include <string_view>

namespace ashare::store {

// Return whether `locator` names a PostgreSQL database.
bool is_postgres_locator(std::string_view locator);

// Return `locator` fit for a message or a log: a URI's password (in its user information or as a
// `password=` parameter) replaced by "***". A SQLite path is returned as it is.
std::string redacted_locator(std::string_view locator);

} // namespace ashare::store
