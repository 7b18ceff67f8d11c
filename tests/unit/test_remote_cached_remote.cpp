// remote::CachedRemote against a fake upstream (the core's own API on a store of its own): its
// answers equal the remote's own (D8 anchor, D1 item errors, the plan's default limit), it fetches
// only what the cache lacks, and offline it never touches the network.
#include "fake_remote.hpp"
#include "testutil.hpp"

#include "core/remote/cached_remote.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace ashare;
using test::FakeRemote;

namespace {

const std::string k_base_url = "http://remote.test";
const std::string k_bars = "/v1/ohlc/range/1/day/";

// A client's cache of the fake remote; each `session` is one run of the command line.
struct Client {
  test::TempDir dir;
  store::CacheStore cache{dir / "cache.db"};
  auth::SystemRandom random;

  remote::CachedRemote session(FakeRemote& upstream,
                               auth::Plan plan = auth::Plan::pro,
                               bool offline = false,
                               bool refresh = false) {
    return remote::CachedRemote(
        upstream, cache,
        remote::RemoteSettings{k_base_url, plan, offline, refresh, test::k_fake_now_ms}, random);
  }
};

// A body without what differs between two answers of the same data: the request id.
nlohmann::json comparable(const std::string& body) {
  auto json = nlohmann::json::parse(body);
  json.erase("request_id");
  return json;
}

void check_same_answer(remote::CachedRemote& cached,
                       FakeRemote& upstream,
                       const std::string& target) {
  CAPTURE(target);
  const auto got = cached.get(target);
  const auto expected = upstream.direct(target);
  CHECK(got.status == expected.status);
  CHECK(comparable(got.body) == comparable(expected.body));
}

} // namespace

TEST_CASE("remote::CachedRemote: bars answers equal the remote's own (D8, D1)") {
  FakeRemote upstream;
  Client client;
  auto cached = client.session(upstream);
  const std::vector<std::string> targets{
      // An old window, adjusted: the anchor is the symbol's latest factor, not the window's (D8).
      k_bars + "2024-06-01/2024-07-31?symbol=600519.SH",
      k_bars + "2024-06-01/2024-07-31?symbol=600519.SH&adjusted=false&include=summary",
      k_bars
          + "2024-01-01/2025-10-23?symbol=600519.SH,600036.SH,002594.SZ&sort=desc&limit=30"
            "&include=summary",
      // D1: an unknown symbol among several is an item error; the others answer.
      k_bars + "2024-06-01/2024-06-30?symbol=600519.SH,999999.SH",
      // A window past as_of, and one before the first bar.
      k_bars + "2025-10-01/2025-12-31?symbol=002594.SZ&sort=desc",
      k_bars + "2020-01-01/2020-12-31?symbol=600036.SH",
      // limit leaves bars out: next_url, which the cache answers too.
      k_bars + "2023-01-01/2025-12-31?symbol=600519.SH&limit=7&sort=desc",
      k_bars + "2023-01-01/2025-10-13?symbol=600519.SH&limit=7&sort=desc",
  };
  for (const auto& target : targets) {
    check_same_answer(cached, upstream, target);
  }
  SUBCASE("a single unknown symbol is the remote's own 400 INVALID_SYMBOL") {
    const auto reply = cached.get(k_bars + "2024-06-01/2024-06-30?symbol=999999.SH");
    CHECK(reply.status == 400);
    CHECK(comparable(reply.body)["error"]["code"] == "INVALID_SYMBOL");
  }
}

TEST_CASE("issue 11: CachedRemote::get_bars is get's answer, typed, with its item errors") {
  FakeRemote upstream;
  Client client;
  auto cached = client.session(upstream);
  const std::vector<std::string> queries{
    "2024-06-01/2024-07-31?symbol=600519.SH",
    "2024-06-01/2024-07-31?symbol=600519.SH&adjusted=false&include=summary",
    "2024-01-01/2025-10-23?symbol=600519.SH,600036.SH,002594.SZ&sort=desc&limit=30",
    "2024-06-01/2024-06-30?symbol=600519.SH,999999.SH",
    "2024-06-01/2024-06-30?symbol=999999.SH", // the remote's 400, as a reply
  };
  for (const auto& query : queries) {
    const auto target = k_bars + query;
    CAPTURE(target);
    const auto question = target.find('?');
    auto request = api::parse_typed_request(target.substr(0, question), target.substr(question + 1));
    REQUIRE(request);
    REQUIRE(*request);
    const auto& bars = std::get<api::BarsRequest>(**request);
    const auto expected = cached.get(bars.to_target());
    auto answer = cached.get_bars(bars);
    if (expected.status != 200) {
      REQUIRE(std::holds_alternative<remote::Reply>(answer));
      CHECK(std::get<remote::Reply>(answer).status == expected.status);
      CHECK(comparable(std::get<remote::Reply>(answer).body) == comparable(expected.body));
      continue;
    }
    REQUIRE(std::holds_alternative<api::BarsResponse>(answer));
    const auto& response = std::get<api::BarsResponse>(answer);
    CHECK(comparable(api::bars_to_json(response, std::nullopt)) == comparable(expected.body));
    const auto parsed = api::bars_from_json(expected.body);
    REQUIRE(parsed);
    REQUIRE(response.errors.size() == parsed->errors.size());
    for (std::size_t i = 0; i < parsed->errors.size(); ++i) {
      CHECK(response.errors[i].has_value() == parsed->errors[i].has_value());
    }
  }
}

TEST_CASE("remote::CachedRemote: a covered query sends nothing, a partly covered one the gap") {
  FakeRemote upstream;
  Client client;
  {
    auto cached = client.session(upstream);
    REQUIRE(cached.get(k_bars + "2024-06-01/2024-06-30?symbol=600519.SH").status == 200);
  }
  std::size_t mark = upstream.targets.size();
  {
    // A new run after no new session close: no /healthz, no bars request.
    auto cached = client.session(upstream);
    REQUIRE(cached.get(k_bars + "2024-06-03/2024-06-28?symbol=600519.SH&sort=desc").status == 200);
    CHECK(upstream.targets.size() == mark);
  }
  {
    auto cached = client.session(upstream);
    REQUIRE(cached.get(k_bars + "2024-06-01/2024-07-31?symbol=600519.SH").status == 200);
    // Only July was missing, fetched raw.
    REQUIRE(upstream.targets.size() == mark + 1);
    CHECK(upstream.targets.back()
          == k_bars + "2024-07-01/2024-07-31?symbol=600519.SH&adjusted=false&sort=asc");
  }
}

TEST_CASE("remote::CachedRemote: the plan's default limit pages as the remote does (D4, D6)") {
  FakeRemote upstream(auth::Plan::free, test::daily_bars_csv());
  Client client;
  auto cached = client.session(upstream, auth::Plan::free);
  // Without `limit`, the Free maximum of 500, then next_url; the cache follows it to fill.
  const std::string window = k_bars + "2024-01-01/2025-08-22?symbol=900001.SH";
  check_same_answer(cached, upstream, window);
  const auto body = nlohmann::json::parse(cached.get(window).body);
  CHECK(body["resultsCount"] == 500);
  CHECK(body["next_url"] == k_bars + "2025-05-15/2025-08-22?symbol=900001.SH");
  check_same_answer(cached, upstream, body["next_url"].get<std::string>());
  check_same_answer(cached, upstream, window + "&limit=9&sort=desc");
}

TEST_CASE("remote::CachedRemote: indicators from the cache once it holds the whole history") {
  FakeRemote upstream;
  Client client;
  auto cached = client.session(upstream);
  const std::string sma = "/v1/indicators/sma?symbol=600519.SH&window=20&limit=30";
  SUBCASE("without the whole history the request is forwarded") {
    const auto mark = upstream.targets.size();
    check_same_answer(cached, upstream, sma);
    CHECK(upstream.count_since(mark, "/v1/indicators/sma") == 1);
  }
  SUBCASE("with it, nothing is sent and the values equal the remote's (D9)") {
    REQUIRE(cached.get(k_bars + "1990-01-01/2025-10-23?symbol=600519.SH,600036.SH").status == 200);
    const auto mark = upstream.targets.size();
    for (const auto& target :
         {sma, std::string("/v1/indicators/ema?symbol=600519.SH,600036.SH&order=asc&limit=5"),
          std::string("/v1/indicators/rsi?symbol=600036.SH&adjusted=false&series_type=high"
                      "&timestamp.gte=2024-06-03&timestamp.lte=2024-06-21&limit=50")}) {
      check_same_answer(cached, upstream, target);
    }
    CHECK(upstream.count_since(mark, "/v1/") == 0);
  }
}

TEST_CASE("remote::CachedRemote: offline") {
  FakeRemote upstream;
  Client client;
  SUBCASE("a cold cache throws OfflineMiss and sends nothing") {
    auto cached = client.session(upstream, auth::Plan::pro, true);
    try {
      cached.get(k_bars + "2024-06-01/2024-06-30?symbol=600519.SH");
      FAIL("expected OfflineMiss");
    } catch (const remote::OfflineMiss& miss) {
      CHECK(std::string(miss.what())
            == "--offline: the cache of http://remote.test does not know the remote's as_of; run "
               "without --offline (or ashare sync) first");
    }
    CHECK(upstream.targets.empty());
  }
  SUBCASE("a warm cache answers; an invalid request gets the core's words") {
    {
      auto online = client.session(upstream);
      REQUIRE(online.get(k_bars + "2024-06-01/2024-06-30?symbol=600519.SH").status == 200);
    }
    const auto mark = upstream.targets.size();
    auto cached = client.session(upstream, auth::Plan::pro, true);
    check_same_answer(cached, upstream, k_bars + "2024-06-03/2024-06-21?symbol=600519.SH");
    check_same_answer(cached, upstream, k_bars + "2024-06-21/2024-06-03?symbol=600519.SH");
    check_same_answer(cached, upstream, "/healthz");
    CHECK(upstream.targets.size() == mark);
  }
}

TEST_CASE("remote::CachedRemote: what it forwards, and refresh") {
  FakeRemote upstream;
  Client client;
  SUBCASE("an invalid request online is the remote's to word") {
    auto cached = client.session(upstream);
    upstream.answer = [](const std::string& target) -> std::optional<remote::Reply> {
      if (target.starts_with(k_bars)) {
        return remote::Reply{400, R"({"status":"ERROR","error":{"code":"INVALID_PARAMETER",)"
                                  R"("message":"the remote's words"}})"};
      }
      return std::nullopt;
    };
    const auto reply = cached.get(k_bars + "2024-06-21/2024-06-03?symbol=600519.SH");
    CHECK(reply.status == 400);
    CHECK(reply.body.find("the remote's words") != std::string::npos);
  }
  SUBCASE("the OpenAPI document and unknown paths are forwarded") {
    auto cached = client.session(upstream);
    check_same_answer(cached, upstream, "/v1/openapi.json");
    CHECK(cached.get("/v1/nothing").status == 404);
    CHECK(upstream.targets == std::vector<std::string>{"/v1/openapi.json", "/v1/nothing"});
  }
  SUBCASE("refresh asks /healthz again and each anchor once") {
    {
      auto cached = client.session(upstream);
      REQUIRE(cached.get(k_bars + "2024-06-01/2024-06-30?symbol=600519.SH").status == 200);
    }
    const auto mark = upstream.targets.size();
    auto cached = client.session(upstream, auth::Plan::pro, false, true);
    check_same_answer(cached, upstream, k_bars + "2024-06-01/2024-06-30?symbol=600519.SH");
    check_same_answer(cached, upstream, k_bars + "2024-06-01/2024-06-30?symbol=600519.SH");
    CHECK(upstream.count_since(mark, "/healthz") == 1);
    CHECK(upstream.count_since(mark, k_bars) == 1); // the anchor, asked once
  }
}
