// api::KeyCache (issue 9): public prefix -> the stored keys of it (id, plan, metered, revoked,
// digest), from memory while the key store's counter stands still; never a balance, never an
// unknown prefix. Digests are compared in constant time (issue 13).
#include "testutil.hpp"

#include "core/api/caller.hpp"
#include "core/api/key_cache.hpp"
#include "core/auth/api_key.hpp"

#include <doctest/doctest.h>

// The file's names apart from the other files' of a unity build (cmake/Unity.cmake): its
// `using` of auth::Plan would otherwise meet fetch::Plan, which other test files bring in.
namespace test_api_key_cache {

using namespace ashare;
using auth::Plan;
using Clock = std::chrono::steady_clock;

namespace {

api::Credential credential_of(const std::string& plaintext) {
  return api::Credential{std::string(auth::key_lookup_prefix(plaintext)), auth::key_digest(plaintext)};
}

} // namespace

TEST_CASE("api::KeyCache") {
  test::TempDir dir;
  const auto path = dir / "ashare-keys.db";
  const auto metered = test::create_key(path, Plan::basic, 10);
  const auto unmetered = test::create_key(path, Plan::pro, std::nullopt);
  store::SqliteKeyStore server(path);
  store::SqliteKeyStore admin(path); // another connection, as `ashare keys` in another process
  store::ChangeCounter changes(path);
  api::KeyCache cache(&changes);
  const auto t0 = Clock::now();
  const auto digest = credential_of(metered.plaintext);

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

  SUBCASE("D15: what it remembers stays available however old, without the store") {
    const auto late = t0 + std::chrono::hours(1);
    CHECK_FALSE(cache.find_fresh(digest, late).known); // too old to trust while the store answers
    const auto remembered = cache.find_remembered(digest);
    CHECK(remembered.known);
    REQUIRE(remembered.key);
    CHECK(remembered.key->id == metered.id);
    const auto stranger = cache.find_remembered(credential_of(unmetered.plaintext));
    CHECK_FALSE(stranger.known); // never asked for: only the store could say
  }
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
    const auto key = cache.find(credential_of(created.plaintext), server, t0);
    REQUIRE(key);
    CHECK(key->plan == Plan::free);
    CHECK_FALSE(key->metered);
  }
  SUBCASE("unknown prefixes are answered but never remembered") {
    for (int i = 0; i < 100; ++i) {
      const auto unknown = credential_of("ask_random_" + std::to_string(i) + "_secret");
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
    const auto key = cache.find(credential_of(unmetered.plaintext), server, t0);
    REQUIRE(key);
    CHECK_FALSE(key->metered);
    CHECK(key->plan == Plan::pro);
  }
}

TEST_CASE("issue 13: keys are found by their public prefix, then by digest in constant time") {
  test::TempDir dir;
  const auto path = dir / "ashare-keys.db";
  store::SqliteKeyStore keys(path);
  // Two keys that share their public prefix (48 random bits: rare, but it must work).
  const std::string first = "ask_SHAREDPRFirstSecretPartOfTheKey00000000000000";
  const std::string second = "ask_SHAREDPRSecondSecretPartOfTheKey0000000000000";
  REQUIRE(auth::key_lookup_prefix(first) == auth::key_lookup_prefix(second));
  const auto insert = [&](const std::string& plaintext, Plan plan) {
    return keys.insert_key(store::NewKeyRecord{std::string(auth::key_lookup_prefix(plaintext)),
                                               auth::key_digest(plaintext), "t", plan,
                                               std::nullopt, "2024-01-01T00:00:00Z"});
  };
  const auto first_id = insert(first, Plan::free);
  const auto second_id = insert(second, Plan::pro);
  CHECK(keys.find_by_prefix(std::string(auth::key_lookup_prefix(first))).size() == 2);
  store::ChangeCounter changes(path);
  api::KeyCache cache(&changes);
  const auto t0 = Clock::now();
  CHECK(cache.find(credential_of(first), keys, t0)->id == first_id);
  CHECK(cache.find_fresh(credential_of(second), t0).key->id == second_id);
  // A wrong key of a known prefix: known to be no key, from memory.
  const auto wrong = cache.find_fresh(credential_of("ask_SHAREDPRWrongGuess"), t0);
  CHECK(wrong.known);
  CHECK_FALSE(wrong.key);
  CHECK_FALSE(cache.find(credential_of("ask_SHAREDPRWrongGuess"), keys, t0));
  // authenticate(), without the cache, the same.
  CHECK(api::authenticate("Bearer " + second, keys)->key_id == second_id);
  CHECK_FALSE(api::authenticate("Bearer ask_SHAREDPRWrongGuess", keys).ok());
  CHECK_FALSE(api::authenticate("Bearer ask_S", keys).ok()); // shorter than a prefix
}

TEST_CASE("issue 13: auth::digests_equal") {
  const auto a = auth::key_digest("ask_a");
  const auto b = auth::key_digest("ask_b");
  CHECK(auth::digests_equal(a, a));
  CHECK_FALSE(auth::digests_equal(a, b));
  CHECK_FALSE(auth::digests_equal(a, a.substr(0, 31)));
  CHECK_FALSE(auth::digests_equal(a, ""));
  CHECK(auth::digests_equal("", ""));
  auto last_byte = a;
  last_byte.back() = static_cast<char>(last_byte.back() ^ 1);
  CHECK_FALSE(auth::digests_equal(a, last_byte));
}

} // namespace test_api_key_cache
