#include "testutil.hpp"

#include "core/store/connection_pool.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;

TEST_CASE("store::ConnectionPool") {
  test::TempDir dir;
  store::ConnectionPool<store::SqliteBarStore> pool(dir / "ashare.db");

  SUBCASE("a returned connection is reused") {
    store::SqliteBarStore* first = nullptr;
    {
      auto lease = pool.acquire();
      first = &*lease;
    }
    auto again = pool.acquire();
    CHECK(&*again == first);
  }
  SUBCASE("connections in use at once are distinct") {
    auto a = pool.acquire();
    auto b = pool.acquire();
    CHECK(&*a != &*b);
    CHECK(a->load_generation() == 0);
    CHECK(b->load_generation() == 0);
  }
  SUBCASE("a moved lease returns its connection once") {
    store::SqliteBarStore* first = nullptr;
    {
      auto lease = pool.acquire();
      first = &*lease;
      auto moved = std::move(lease);
      CHECK(&*moved == first);
    }
    auto a = pool.acquire();
    auto b = pool.acquire();
    CHECK(&*a == first);
    CHECK(&*b != first);
  }
}

namespace {

// A connection that can lose its server, as a PostgreSQL one does (issue 14).
struct FlakyConnection {
  bool up = true;
  bool healthy() const { return up; }
};

} // namespace

TEST_CASE("store::ConnectionPool drops a connection whose server went away (issue 14, D15)") {
  int opened = 0;
  store::ConnectionPool<FlakyConnection> pool([&opened] {
    ++opened;
    return std::make_unique<FlakyConnection>();
  });
  FlakyConnection* first = nullptr;
  {
    auto lease = pool.acquire();
    first = &*lease;
  }
  {
    auto lease = pool.acquire();
    CHECK(&*lease == first); // healthy: lent again
    lease->up = false;
  }
  CHECK(opened == 1);
  auto lease = pool.acquire();
  CHECK(opened == 2); // the broken one was dropped, a new one opened
  CHECK(lease->healthy());
}
