// api::KeyCache (issue 9): digest -> id, plan, metered, revoked, from memory while the key store's
// counter stands still; never a balance, never an unknown digest.
#include "testutil.hpp"

#include "core/api/key_cache.hpp"
#include "core/auth/api_key.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using auth::Plan;
using Clock = std::chrono::steady_clock;

TEST_CASE("api::KeyCache") {
  test::TempDir dir;
  const auto path = dir / "ashare-keys.db";
  const auto metered = test::create_key(path, Plan::basic, 10);
  const auto unmetered = test::create_key(path, Plan::pro, std::nullopt);
  store::KeyStore server(path);
  store::KeyStore admin(path); // another connection, as `ashare keys` in another process
  store::ChangeCounter changes(path);
  api::KeyCache cache(&changes);
  const auto t0 = Clock::now();
  const auto digest = auth::key_digest(metered.plaintext);

  CHECK_FALSE(cache.find_fresh(digest, t0).known); // nothing remembered yet
  const auto found = cache.find(digest, server, t0);
  REQUIRE(found);
  CHECK(found->id == metered.id);
  CHECK(found->plan == Plan::basic);
  CHECK(found->metered);
  CHECK_FALSE(found->revoked_at);
  const auto fresh = cache.find_fresh(digest, t0 + std::chrono::milliseconds(500));
  CHECK(fresh.known);
  REQUIRE(fresh.key);
  CHECK(fresh.key->id == metered.id);

  SUBCASE("a charge or a credit changes nothing it remembers") {
    CHECK(admin.charge(metered.id, 4) == 6);
    CHECK(admin.add_credits(metered.id, 1) == 7);
    CHECK(cache.find_fresh(digest, t0).known);
  }
  SUBCASE("a revoke elsewhere is seen by the next request") {
    REQUIRE(admin.revoke(metered.id, "2024-03-01T00:00:00Z"));
    CHECK_FALSE(cache.find_fresh(digest, t0).known); // the counter moved
    const auto revoked = cache.find(digest, server, t0);
    REQUIRE(revoked);
    CHECK(revoked->revoked_at == "2024-03-01T00:00:00Z");
    const auto again = cache.find_fresh(digest, t0);
    CHECK(again.known);
    CHECK(again.key->revoked_at == "2024-03-01T00:00:00Z");
  }
  SUBCASE("a key created elsewhere drops what it remembers, then it is found") {
    const auto created = test::create_key(path, Plan::free, std::nullopt);
    CHECK_FALSE(cache.find_fresh(digest, t0).known);
    const auto key = cache.find(auth::key_digest(created.plaintext), server, t0);
    REQUIRE(key);
    CHECK(key->plan == Plan::free);
    CHECK_FALSE(key->metered);
  }
  SUBCASE("unknown digests are answered but never remembered") {
    for (int i = 0; i < 100; ++i) {
      const auto unknown = auth::key_digest("ask_random_" + std::to_string(i));
      CHECK_FALSE(cache.find(unknown, server, t0));
      CHECK_FALSE(cache.find_fresh(unknown, t0).known);
    }
    CHECK(cache.find_fresh(digest, t0).known);
  }
  SUBCASE("what it remembers is checked against the store at least once a second") {
    CHECK_FALSE(cache.find_fresh(digest, t0 + store::k_recheck_interval).known);
    CHECK(cache.find(digest, server, t0 + store::k_recheck_interval));
    CHECK(cache.find_fresh(digest, t0 + store::k_recheck_interval).known);
  }
  SUBCASE("an unmetered key") {
    const auto key = cache.find(auth::key_digest(unmetered.plaintext), server, t0);
    REQUIRE(key);
    CHECK_FALSE(key->metered);
    CHECK(key->plan == Plan::pro);
  }
}
