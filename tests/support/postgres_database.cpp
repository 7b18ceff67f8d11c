#include "support/postgres_database.hpp"

#include <libpq-fe.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace ashare::test {
namespace {

using ConnectionPtr = std::unique_ptr<PGconn, decltype(&PQfinish)>;
using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

ConnectionPtr connect(const std::string& uri) {
  ConnectionPtr connection(PQconnectdb(uri.c_str()), &PQfinish);
  if (connection == nullptr || PQstatus(connection.get()) != CONNECTION_OK) {
    throw std::runtime_error("cannot connect to the test PostgreSQL server: "
                             + std::string(connection ? PQerrorMessage(connection.get()) : ""));
  }
  return connection;
}

// Append the rows of `result` as psql -At prints them.
void print_rows(const PGresult* result, std::string& out) {
  for (int row = 0; row < PQntuples(result); ++row) {
    for (int field = 0; field < PQnfields(result); ++field) {
      out += field > 0 ? "|" : "";
      out += PQgetvalue(result, row, field); // "" for NULL, as psql prints it
    }
    out += '\n';
  }
}

// Append the data of a COPY ... TO STDOUT in progress on `connection`.
void copy_out(PGconn* connection, std::string& out) {
  char* buffer = nullptr;
  int size = 0;
  while ((size = PQgetCopyData(connection, &buffer, 0)) > 0) {
    out.append(buffer, static_cast<std::size_t>(size));
    PQfreemem(buffer);
  }
}

} // namespace

std::string postgres_server_uri() {
  const char* uri = std::getenv("ASHARE_TEST_POSTGRES");
  if (uri == nullptr || *uri == '\0') {
    throw std::runtime_error("ASHARE_TEST_POSTGRES is not set: run the PostgreSQL tests under "
                             "scripts/with-postgres.sh");
  }
  return uri;
}

std::string postgres_sql(const std::string& uri, const std::string& sql) {
  const auto connection = connect(uri);
  if (PQsendQuery(connection.get(), sql.c_str()) == 0) {
    throw std::runtime_error("cannot send " + sql + ": " + PQerrorMessage(connection.get()));
  }
  // Every statement's result, as psql 15 prints them all; the first error stops (ON_ERROR_STOP).
  std::string out;
  std::string error;
  while (PGresult* raw = PQgetResult(connection.get())) {
    const ResultPtr result(raw, &PQclear);
    switch (PQresultStatus(raw)) {
    case PGRES_TUPLES_OK:
      print_rows(raw, out);
      break;
    case PGRES_COPY_OUT:
      copy_out(connection.get(), out);
      break;
    case PGRES_COMMAND_OK:
    case PGRES_EMPTY_QUERY:
      break;
    default:
      error = error.empty() ? PQresultErrorMessage(raw) : error;
      break;
    }
  }
  if (!error.empty()) {
    throw std::runtime_error("SQL failed: " + sql + "\n" + error);
  }
  return out;
}

namespace {

// The databases of PostgresDatabases that have ended, emptied, by server: the next one takes one
// of these rather than making its own. On the test server a CREATE DATABASE and its DROP cost
// about 0.27 s of CPU (the template's files copied, written to the WAL, then removed), emptying
// one about 0.07 s, and the black-box suite on PostgreSQL makes a few hundred.
std::mutex g_free_mutex;
std::map<std::string, std::vector<std::string>> g_free_databases;

} // namespace

PostgresDatabase::PostgresDatabase() : m_server(postgres_server_uri()) {
  {
    const std::lock_guard lock(g_free_mutex);
    auto& free = g_free_databases[m_server];
    if (!free.empty()) {
      m_name = free.back();
      free.pop_back();
      return;
    }
  }
  static std::atomic<int> count{0};
  m_name = "ashare_test_" + std::to_string(::getpid()) + "_" + std::to_string(++count);
  postgres_sql(m_server, "CREATE DATABASE " + m_name);
}

PostgresDatabase::~PostgresDatabase() {
  // Emptied for the next, on one connection (a connection costs the server tens of ms): its other
  // sessions ended (a server the test left running, a listener), its schema dropped with
  // everything in it and made again, then checked to hold nothing; dropped instead when any of
  // that fails.
  try {
    const auto left = sql(
        "DO $$ BEGIN PERFORM pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid(); END $$; "
        "DROP SCHEMA public CASCADE; CREATE SCHEMA public; "
        "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') "
        "AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'");
    if (left == "0\n") {
      const std::lock_guard lock(g_free_mutex);
      g_free_databases[m_server].push_back(m_name);
      return;
    }
  } catch (const std::exception&) {
    // Dropped below.
  }
  try {
    postgres_sql(m_server, "DROP DATABASE IF EXISTS " + m_name + " WITH (FORCE)");
  } catch (const std::exception&) {
    // The server is going away with its directory (with-postgres.sh), or was stopped by the test.
  }
}

std::string PostgresDatabase::uri() const {
  return m_server + (m_server.find('?') == std::string::npos ? "?" : "&") + "dbname=" + m_name;
}

std::string PostgresDatabase::sql(const std::string& text) const {
  return postgres_sql(uri(), text);
}

} // namespace ashare::test
