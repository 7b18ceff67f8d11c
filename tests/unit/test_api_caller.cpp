#include "testutil.hpp"

#include "core/api/caller.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using auth::Plan;

TEST_CASE("D5: api::authenticate") {
  test::TempDir dir;
  const auto keys_path = dir / "ashare-keys.db";
  const auto metered = test::create_key(keys_path, Plan::basic, 20);
  const auto unmetered = test::create_key(keys_path, Plan::pro, std::nullopt);
  store::SqliteKeyStore keys(keys_path);

  const auto fails = [&](const std::optional<std::string>& header, const std::string& message) {
    const auto caller = api::authenticate(header, keys);
    REQUIRE_FALSE(caller.ok());
    CHECK(caller.error().code == ErrorCode::unauthorized);
    CHECK(caller.error().message == message);
  };

  SUBCASE("a valid key gives its plan and whether it is metered") {
    const auto caller = api::authenticate("Bearer " + metered.plaintext, keys);
    REQUIRE(caller.ok());
    CHECK(caller->key_id == metered.id);
    CHECK(caller->plan == Plan::basic);
    CHECK(caller->metered);

    const auto pro = api::authenticate("bearer " + unmetered.plaintext, keys);
    REQUIRE(pro.ok());
    CHECK(pro->plan == Plan::pro);
    CHECK_FALSE(pro->metered);
  }
  SUBCASE("missing header") {
    fails(std::nullopt, "missing Authorization header: send \"Authorization: Bearer <API_KEY>\"");
  }
  SUBCASE("another scheme or no credential") {
    for (const auto& header : {"Basic " + metered.plaintext, metered.plaintext,
                               std::string("Bearer "), std::string("")}) {
      CAPTURE(header);
      fails(header, "invalid Authorization header: expected \"Bearer <API_KEY>\"");
    }
  }
  SUBCASE("an unknown key, including a known key's prefix only") {
    fails("Bearer ask_unknown", "invalid API key");
    fails("Bearer " + metered.plaintext.substr(0, 12), "invalid API key");
    fails("Bearer " + metered.plaintext + "x", "invalid API key");
  }
  SUBCASE("a revoked key") {
    REQUIRE(keys.revoke(metered.id, "2024-02-01T10:00:00Z"));
    fails("Bearer " + metered.plaintext, "API key revoked at 2024-02-01T10:00:00Z");
  }
}
