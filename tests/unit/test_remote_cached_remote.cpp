// remote::CachedRemote against a fake upstream (the core's own API on a store of its own): its
// answers equal the remote's own (D8 anchor, D1 item errors, the plan's default limit), it fetches
// only what the cache lacks, and offline it never touches the network.
#include "fake_remote.hpp"
#include "testutil.hpp"

#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/overloaded.hpp"
#include "core/remote/cached_remote.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace ashare;
using test::FakeRemote;

namespace {

const std::string k_bars = "/v1/ohlc/range/1/day/";

// Return `answered` as the remote writes it: the status and body of a response, or of an error.
http::Reply reply_of(const api::Answer& answered) {
  return std::visit(
    Overloaded{
      [](const Error& error) {
        return http::Reply{error_info(error.code).http_status, api::error_to_json(error)};
      },
      [](const api::HealthResponse& health) {
        return http::Reply{200, api::health_to_json(health.dataset)};
      },
      [](const api::BarsResponse& bars) {
        return http::Reply{200, api::bars_to_json(bars, bars.credits_charged)};
      },
      [](const api::IndicatorResponse& values) {
        return http::Reply{200, api::indicators_to_json(values)};
      },
      [](const api::MembersResponse& members) {
        return http::Reply{200, api::members_to_json(members)};
      },
      [](const api::Unanswered&) {
        FAIL("remote mode resolves every answer");
        return http::Reply{};
      }},
    answered);
}

// One run of the command line in remote mode.
class Session {
public:
  Session(FakeRemote& upstream,
          store::CacheStore& cache,
          const remote::RemoteSettings& settings,
          auth::RandomSource& random)
    : m_remote(upstream, cache, settings, random) {}

  // Return the answer to `target`, as the remote writes it: the typed request it parses to,
  // answered; a target that does not parse is the core's 400, as the command line words a
  // request it cannot build.
  http::Reply get(const std::string& target) {
    const auto question = target.find('?');
    const auto request =
      api::parse_typed_request(target.substr(0, question),
                               question == std::string::npos ? "" : target.substr(question + 1));
    REQUIRE(request);
    if (!*request) {
      return reply_of(request->error());
    }
    return reply_of(m_remote.answer(**request));
  }

  remote::CachedRemote& remote() { return m_remote; }

private:
  remote::CachedRemote m_remote;
};

// A client's cache of the fake remote; each `session` is one run of the command line.
struct CachedClient {
  test::TempDir dir;
  store::CacheStore cache{dir / "cache.db"};
  auth::SystemRandom random;

  Session session(FakeRemote& upstream,
                  auth::Plan plan = auth::Plan::pro,
                  bool offline = false,
                  bool refresh = false) {
    return Session(upstream, cache,
                   remote::RemoteSettings{test::k_remote_base_url, plan, offline, refresh,
                                          test::k_fake_now_ms},
                   random);
  }
};

// A body without what differs between two answers of the same data: the request id.
nlohmann::json comparable_reply(const std::string& body) {
  auto json = nlohmann::json::parse(body);
  json.erase("request_id");
  return json;
}

void check_same_answer(Session& cached,
                       FakeRemote& upstream,
                       const std::string& target) {
  CAPTURE(target);
  const auto got = cached.get(target);
  const auto expected = upstream.direct(target);
  CHECK(got.status == expected.status);
  CHECK(comparable_reply(got.body) == comparable_reply(expected.body));
}

} // namespace

TEST_CASE("remote::CachedRemote: bars answers equal the remote's own (D8, D1)") {
  FakeRemote upstream;
  CachedClient client;
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
    CHECK(comparable_reply(reply.body)["error"]["code"] == "INVALID_SYMBOL");
  }
}

TEST_CASE("issue 31: CachedRemote::answer is the remote's answer, typed, with its item errors") {
  FakeRemote upstream;
  CachedClient client;
  auto cached = client.session(upstream);
  const std::vector<std::string> queries{
    "2024-06-01/2024-07-31?symbol=600519.SH",
    "2024-06-01/2024-07-31?symbol=600519.SH&adjusted=false&include=summary",
    "2024-01-01/2025-10-23?symbol=600519.SH,600036.SH,002594.SZ&sort=desc&limit=30",
    "2024-06-01/2024-06-30?symbol=600519.SH,999999.SH",
    "2024-06-01/2024-06-30?symbol=999999.SH", // the remote's 400
  };
  for (const auto& query : queries) {
    const auto target = k_bars + query;
    CAPTURE(target);
    const auto question = target.find('?');
    auto request = api::parse_typed_request(target.substr(0, question), target.substr(question + 1));
    REQUIRE(request);
    REQUIRE(*request);
    const auto expected = upstream.direct(target);
    const auto answer = cached.remote().answer(**request);
    if (expected.status != 200) {
      REQUIRE(std::holds_alternative<Error>(answer));
      CHECK(error_info(std::get<Error>(answer).code).http_status == expected.status);
      CHECK(comparable_reply(reply_of(answer).body) == comparable_reply(expected.body));
      continue;
    }
    REQUIRE(std::holds_alternative<api::BarsResponse>(answer));
    const auto& response = std::get<api::BarsResponse>(answer);
    CHECK(comparable_reply(api::bars_to_json(response, std::nullopt)) == comparable_reply(expected.body));
    const auto parsed = api::bars_from_json(expected.body);
    REQUIRE(parsed);
    REQUIRE(response.items.size() == parsed->items.size());
    for (std::size_t i = 0; i < parsed->items.size(); ++i) {
      CHECK(api::item_error(response, i).has_value() == parsed->items[i].error.has_value());
    }
  }
}

TEST_CASE("remote::CachedRemote: a covered query sends nothing, a partly covered one the gap") {
  FakeRemote upstream;
  CachedClient client;
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
  CachedClient client;
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
  CachedClient client;
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
  CachedClient client;
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
  CachedClient client;
  SUBCASE("a forwarded reply is read back typed: an error envelope, or UnexpectedReply") {
    auto cached = client.session(upstream);
    const std::string sma = "/v1/indicators/sma?symbol=600519.SH";
    const auto request = api::parse_typed_request("/v1/indicators/sma", "symbol=600519.SH");
    REQUIRE(request);
    REQUIRE(*request);
    http::Reply reply{402, R"({"status":"ERROR","error":{"code":"INSUFFICIENT_CREDITS",)"
                             R"("message":"the remote's words"}})"};
    upstream.answer = [&](const std::string& target) -> std::optional<http::Reply> {
      return target == sma ? std::optional(reply) : std::nullopt;
    };
    auto answer = cached.remote().answer(**request);
    REQUIRE(std::holds_alternative<Error>(answer));
    CHECK(std::get<Error>(answer).code == ErrorCode::insufficient_credits);
    CHECK(std::get<Error>(answer).message == "the remote's words");
    reply = http::Reply{502, "<html>bad gateway</html>"};
    CHECK_THROWS_WITH_AS(cached.remote().answer(**request), "HTTP 502 with an unexpected body",
                         remote::UnexpectedReply);
    reply = http::Reply{200, R"({"status":"OK","results":[1]})"};
    CHECK_THROWS_AS(cached.remote().answer(**request), remote::UnexpectedReply);
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
