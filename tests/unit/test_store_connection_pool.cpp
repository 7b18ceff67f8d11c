#include "testutil.hpp"

#include "core/store/connection_pool.hpp"

#include <doctest/doctest.h>

using namespace ashare;

TEST_CASE("store::ConnectionPool") {
  test::TempDir dir;
  store::ConnectionPool<store::BarStore> pool(dir / "ashare.db");
  CHECK(pool.path() == dir / "ashare.db");

  SUBCASE("a returned connection is reused") {
    store::BarStore* first = nullptr;
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
    store::BarStore* first = nullptr;
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
