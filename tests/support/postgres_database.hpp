// The one throwaway PostgreSQL database of the unit, black-box and fuzz suites (issue 34): a
// database of its own on the test server that scripts/with-postgres.sh starts and names in
// ASHARE_TEST_POSTGRES, empty on construction, emptied (or dropped) on destruction. It talks to the
// server through libpq directly, so that a suite need not link the product to use it.
#pragma once

#include <string>

namespace ashare::test {

class PostgresDatabase {
public:
  // Take a database that an earlier PostgresDatabase of this process emptied, or else create one
  // with a name unique to this process (pid and a counter). Throws
  // std::runtime_error (failing the test, never passing it unseen) when ASHARE_TEST_POSTGRES is
  // not set, or when the server refuses.
  PostgresDatabase();
  // End the database's other sessions and empty it for the next PostgresDatabase (its public
  // schema dropped and made again, then checked empty); else drop it WITH (FORCE). A failure (the
  // server already gone) is ignored.
  ~PostgresDatabase();
  PostgresDatabase(const PostgresDatabase&) = delete;
  PostgresDatabase& operator=(const PostgresDatabase&) = delete;

  // Return the database's name, e.g. "ashare_test_4242_1".
  const std::string& name() const { return m_name; }

  // Return the database's postgresql:// URI: the server's with a `dbname` parameter (libpq reads
  // URI parameters after the path, so this one is used).
  std::string uri() const;

  // Run `sql` (one or more statements) in the database and return what `psql -Atq` prints: each
  // row's fields joined by '|', a '\n' after each row, a COPY ... TO STDOUT's data as sent, nothing
  // for a command. Throws std::runtime_error with the server's message when a statement fails.
  std::string sql(const std::string& sql) const;

private:
  std::string m_server;
  std::string m_name;
};

// Return the test server's URI (ASHARE_TEST_POSTGRES); throws std::runtime_error when it is not
// set: run under scripts/with-postgres.sh.
std::string postgres_server_uri();

// Run `sql` on the database at `uri`, printing as PostgresDatabase::sql does.
std::string postgres_sql(const std::string& uri, const std::string& sql);

} // namespace ashare::test
