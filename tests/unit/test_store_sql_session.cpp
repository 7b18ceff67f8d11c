// The SqlSession each data store gives its market record (store/sql_session.hpp), on each backend
// (store_backend.hpp: SQLite here, PostgreSQL in ashare_postgres_tests): one SQL text, read the
// same way by both.
#include "store_backend.hpp"

#include "core/store/postgres/connection.hpp"
#include "core/store/postgres/sql_session.hpp"
#include "core/store/sqlite_sql_session.hpp"

#include <SQLiteCpp/Database.h>
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace ashare;

namespace {

// A session on a new connection to the backend's data store, with the connection it runs on.
struct SessionRig {
  explicit SessionRig(const test::StoreBackend& backend) {
    if (std::string_view(test::StoreBackend::name()) == "sqlite") {
      sqlite.emplace(backend.data_locator(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
      session = std::make_unique<store::SqliteSqlSession>(*sqlite);
      session->run({"", "CREATE TEMPORARY TABLE t(a integer, b text)"}, {});
    } else {
      postgres = std::make_unique<store::postgres::Connection>(backend.data_locator());
      session = std::make_unique<store::postgres::PostgresSqlSession>(*postgres, [] {});
      // A collation of people's order, as a server's default may be (the test cluster's is C).
      session->run({"", "CREATE TEMPORARY TABLE t(a integer, b text COLLATE \"und-x-icu\")"}, {});
    }
  }

  // Return the rows of t as "a:b" ("null" for NULL), in the order `order_by` says.
  std::vector<std::string> rows(const std::string& order_by) {
    std::vector<std::string> out;
    const store::SqlStatement select{"", "SELECT a, b FROM t ORDER BY " + order_by};
    session->run(select, {}, [&](const store::SqlRow& row) {
      out.push_back(std::to_string(row.int64(0)) + ":"
                    + (row.is_null(1) ? "null" : std::string(row.text(1))));
    });
    return out;
  }

  std::optional<SQLite::Database> sqlite;
  std::unique_ptr<store::postgres::Connection> postgres;
  std::unique_ptr<store::SqlSession> session;
};

} // namespace

TEST_CASE("store::SqlSession: $N is the Nth parameter, wherever it stands in the SQL") {
  test::StoreBackend backend;
  SessionRig rig(backend);
  const store::SqlStatement insert{"test_insert", "INSERT INTO t(b, a) VALUES ($2, $1)"};
  rig.session->run(insert, {1, "one"});
  rig.session->run(insert, {std::int64_t{2}, std::nullopt}); // prepared once, run again
  const std::string text = "ab";
  rig.session->run({"", "INSERT INTO t(a, b) VALUES ($1, $2), ($3, $2)"}, {3, text, 4}); // once
  CHECK(rig.rows("a") == std::vector<std::string>{"1:one", "2:null", "3:ab", "4:ab"});
  std::vector<std::int64_t> found;
  rig.session->run({"test_find", "SELECT a FROM t WHERE $1 = '' OR b = $1 ORDER BY a"}, {"one"},
                   [&](const store::SqlRow& row) { found.push_back(row.int64(0)); });
  CHECK(found == std::vector<std::int64_t>{1});
}

TEST_CASE("store::SqlDialect: byte_order orders text as std::string compares it") {
  test::StoreBackend backend;
  SessionRig rig(backend);
  for (const char* text : {"a", "B", "_", "Z9", "z"}) {
    rig.session->run({"test_insert_text", "INSERT INTO t(a, b) VALUES (0, $1)"}, {text});
  }
  CHECK(rig.rows("b" + rig.session->dialect().byte_order)
        == std::vector<std::string>{"0:B", "0:Z9", "0:_", "0:a", "0:z"});
}
