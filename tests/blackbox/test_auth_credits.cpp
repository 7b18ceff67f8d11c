// D5 (authentication) and D7 (credits) over HTTP. Metered keys are created per test on the shared
// server's key store, which the server reads on every request.
#include "fixtures.hpp"

#include <doctest/doctest.h>

using namespace bb;
using nlohmann::json;

namespace {

const std::string k_one = bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH");

} // namespace

TEST_CASE("D5: missing, malformed, unknown and revoked keys are 401 UNAUTHORIZED") {
  const auto port = shared().port();
  const auto& key = shared().pro.plaintext;
  const std::vector<std::optional<std::string>> bad{
      std::nullopt,
      "",
      "Bearer",
      "Bearer ",
      "Basic " + key,
      "Token " + key,
      key,
      "Bearer " + key + "x",
      "Bearer ask_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "Bearer" + key,
      "Bearer " + key.substr(0, 12),
  };
  for (const auto& authorization : bad) {
    CAPTURE(authorization.value_or("(none)"));
    const auto reply = request_with_authorization(port, k_one, authorization);
    check_error(reply, 401, "UNAUTHORIZED");
    CHECK(reply.header("WWW-Authenticate") == "Bearer");
    CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
  }
  SUBCASE("the scheme word is case-insensitive") {
    for (const std::string scheme : {"Bearer", "bearer", "BEARER", "bEaReR"}) {
      CAPTURE(scheme);
      CHECK(request_with_authorization(port, k_one, scheme + " " + key).status == 200);
    }
  }
  SUBCASE("a revoked key stops working at once, without a restart") {
    const auto fresh = shared().store.create_key("pro", std::nullopt, "to-revoke");
    REQUIRE(get(k_one, fresh.plaintext).status == 200);
    REQUIRE(shared().store.cli({"keys", "revoke", std::to_string(fresh.id)}).status == 0);
    await_revoked(shared().store, shared().port(), k_one, fresh.plaintext);
    const auto reply = get(k_one, fresh.plaintext);
    check_error(reply, 401, "UNAUTHORIZED");
    CHECK(reply.header("WWW-Authenticate") == "Bearer");
  }
  SUBCASE("a new key works at once") {
    const auto fresh = shared().store.create_key("free", std::nullopt, "new");
    CHECK(get(k_one, fresh.plaintext).status == 200);
  }
}

TEST_CASE("D7: one credit per served symbol, charged only on success") {
  const auto created = shared().store.create_key("basic", 10, "d7");
  const auto& key = created.plaintext;
  const auto charged = [](const Reply& reply) -> json {
    const auto body = reply.json();
    return body["meta"].contains("credits_charged") ? body["meta"]["credits_charged"] : json();
  };

  auto reply = get(k_one, key);
  REQUIRE(reply.status == 200);
  CHECK(charged(reply) == 1);
  CHECK(remaining(reply) == "9");

  // Two served symbols and an unknown one (free): 2 credits.
  reply = get(bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH,000002.SZ,600036.SH"), key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["status"] == "PARTIAL");
  CHECK(charged(reply) == 2);
  CHECK(remaining(reply) == "7");

  // A known symbol with no bars in range is served: 1 credit.
  reply = get(bars_target("2021-01-04", "2021-01-08", "symbol=600519.SH"), key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["resultsCount"] == 0);
  CHECK(charged(reply) == 1);
  CHECK(remaining(reply) == "6");

  // Every symbol unknown: cost 0, no credits_charged, the header still there.
  reply = get(bars_target("2024-01-02", "2024-01-05", "symbol=000002.SZ,000003.SZ"), key);
  REQUIRE(reply.status == 200);
  CHECK(reply.json()["meta"]
        == json{{"as_of", k_fixture_as_of},
                {"source", "bb-fixtures"},
                {"schema_version", k_schema_version}});
  CHECK(remaining(reply) == "6");

  // Errors after authentication cost nothing and carry the balance.
  for (const std::string& target : std::vector<std::string>{
           bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH&limit=0"), // 400
           bars_target("2024-01-02", "2024-01-05", "symbol=000002.SZ"),         // 400
           "/v1/ohlc/range/1/week/2024-01-02/2024-01-05?symbol=600519.SH",      // 400
           bars_target("2024-01-02", "2024-01-05",
                       "symbol=600519.SH,600036.SH,002594.SZ,000001.SZ,600276.SH,609001.SH"), // 403
           bars_target("2019-01-02", "2024-01-05", "symbol=600519.SH")}) {                    // 403
    CAPTURE(target);
    reply = get(target, key);
    CHECK((reply.status == 400 || reply.status == 403));
    CHECK(remaining(reply) == "6");
  }
  // 404 and 405 come before authentication: no balance.
  reply = get("/v1/nothing", key);
  CHECK(reply.status == 404);
  CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
  reply = request(shared().port(), k_one, key, "POST");
  CHECK(reply.status == 405);
  CHECK_FALSE(reply.has_header("X-Credits-Remaining"));

  CHECK(shared().store.listed_credits(created.id) == "6");
  reply = get(k_one, key);
  CHECK(remaining(reply) == "5");
}

TEST_CASE("D7: insufficient credits is 402, charges nothing, and a cost-0 request still passes") {
  const auto created = shared().store.create_key("basic", 1, "poor");
  const auto& key = created.plaintext;
  const auto two = bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH,600036.SH");

  auto reply = get(two, key);
  check_error(reply, 402, "INSUFFICIENT_CREDITS");
  CHECK(remaining(reply) == "1");
  CHECK(shared().store.listed_credits(created.id) == "1");

  reply = get(k_one, key);
  REQUIRE(reply.status == 200);
  CHECK(remaining(reply) == "0");
  CHECK(reply.json()["meta"]["credits_charged"] == 1);

  reply = get(k_one, key);
  check_error(reply, 402, "INSUFFICIENT_CREDITS");
  CHECK(remaining(reply) == "0");

  reply = get(bars_target("2024-01-02", "2024-01-05", "symbol=000002.SZ,000003.SZ"), key);
  CHECK(reply.status == 200);
  CHECK(remaining(reply) == "0");
  CHECK_FALSE(reply.json()["meta"].contains("credits_charged"));
  CHECK(shared().store.listed_credits(created.id) == "0");

  SUBCASE("credits added on the command line are usable at once") {
    REQUIRE(shared().store.cli({"keys", "credit", std::to_string(created.id), "3"}).status == 0);
    reply = get(two, key);
    REQUIRE(reply.status == 200);
    CHECK(reply.json()["meta"]["credits_charged"] == 2);
    CHECK(remaining(reply) == "1");
  }
  SUBCASE("a key created with 0 credits") {
    const auto zero = shared().store.create_key("pro", 0, "zero").plaintext;
    reply = get(k_one, zero);
    check_error(reply, 402, "INSUFFICIENT_CREDITS");
    CHECK(remaining(reply) == "0");
  }
}

TEST_CASE("D7: unmetered keys never show credits") {
  for (const auto* key : {&shared().pro, &shared().basic, &shared().free}) {
    for (const std::string& target : std::vector<std::string>{
             k_one, bars_target("2024-01-02", "2024-01-05", "symbol=600519.SH&limit=0"),
             bars_target("2024-01-02", "2024-01-05", "symbol=000002.SZ")}) {
      const auto reply = get(target, key->plaintext);
      CHECK_FALSE(reply.has_header("X-Credits-Remaining"));
      if (reply.status == 200) {
        CHECK_FALSE(reply.json()["meta"].contains("credits_charged"));
      }
    }
  }
}
