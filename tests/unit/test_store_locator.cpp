#include "core/store/key_store.hpp"
#include "core/store/locator.hpp"
#include "core/store/postgres/connection.hpp"

#include <doctest/doctest.h>

using namespace ashare;

TEST_CASE("store::is_postgres_locator (issue 14)") {
  CHECK(store::is_postgres_locator("postgresql://db.example/ashare"));
  CHECK(store::is_postgres_locator("postgres:///ashare?host=/run/postgresql"));
  CHECK_FALSE(store::is_postgres_locator("PostgreSQL://db.example/ashare")); // as libpq reads it
  CHECK_FALSE(store::is_postgres_locator("ashare.db"));
  CHECK_FALSE(store::is_postgres_locator("/var/lib/postgresql/ashare.db"));
  CHECK_FALSE(store::is_postgres_locator("postgresql:/ashare"));
  CHECK_FALSE(store::is_postgres_locator(""));
}

TEST_CASE("store::redacted_locator hides passwords and nothing else (issue 14)") {
  CHECK(store::redacted_locator("postgresql://ashare:s3cret@db.example:5432/prod")
        == "postgresql://ashare:***@db.example:5432/prod");
  CHECK(store::redacted_locator("postgres://ashare:p%40ss@db/prod?sslmode=require")
        == "postgres://ashare:***@db/prod?sslmode=require");
  CHECK(store::redacted_locator("postgresql://ashare@db/prod?password=s3cret&sslmode=require")
        == "postgresql://ashare@db/prod?password=***&sslmode=require");
  CHECK(store::redacted_locator("postgresql:///prod?host=/run/postgresql&password=x")
        == "postgresql:///prod?host=/run/postgresql&password=***");
  CHECK(store::redacted_locator("postgresql:///prod?PASSWORD=x") == "postgresql:///prod?PASSWORD=***");
  CHECK(store::redacted_locator("postgresql://db.example/prod")
        == "postgresql://db.example/prod");
  CHECK(store::redacted_locator("postgresql://ashare@db.example/prod")
        == "postgresql://ashare@db.example/prod");
  // An '@' after the authority is not user information.
  CHECK(store::redacted_locator("postgresql://db/prod?application_name=a@b")
        == "postgresql://db/prod?application_name=a@b");
  CHECK(store::redacted_locator("/home/me/ashare:secret@x.db") == "/home/me/ashare:secret@x.db");
}

TEST_CASE("a PostgreSQL store that cannot be reached is StoreUnavailable, its password hidden") {
  const std::string uri =
    "postgresql://ashare:topsecret@/ashare?host=/nonexistent-ashare-socket&connect_timeout=2";
  try {
    store::open_key_store(uri);
    FAIL("no server listens there");
  } catch (const store::StoreUnavailable& error) {
    const std::string message = error.what();
    CHECK(message.find("topsecret") == std::string::npos);
    CHECK(message.rfind("cannot connect to postgresql://ashare:***@/ashare?host=", 0) == 0);
  }
}
