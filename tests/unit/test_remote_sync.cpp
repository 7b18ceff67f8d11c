// `ashare sync`'s rules (remote/sync) against a fake upstream: the default window (D6), the work
// grouped by missing range, batches of the plan's symbol maximum halved on PLAN_LIMIT, and
// unknown symbols reported rather than fatal (D1).
#include "fake_remote.hpp"
#include "testutil.hpp"

#include "core/remote/sync.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using test::date;
using test::FakeRemote;

namespace {

struct SyncClient {
  test::TempDir dir;
  store::CacheStore cache{dir / "cache.db"};

  remote::CacheFiller filler(FakeRemote& upstream, auth::Plan plan) {
    return remote::CacheFiller(upstream, cache, test::k_remote_base_url, plan, test::k_fake_now_ms);
  }
};

} // namespace

TEST_CASE("remote::sync_window: the plan's reach and as_of (D6)") {
  const auto as_of = date("2025-10-23");
  CHECK(remote::sync_window(auth::Plan::free, as_of, {}, {})
        == test::date_range("2023-10-23", "2025-10-23"));
  CHECK(remote::sync_window(auth::Plan::basic, as_of, {}, {})
        == test::date_range("2020-10-23", "2025-10-23"));
  CHECK(remote::sync_window(auth::Plan::pro, as_of, {}, {})
        == test::date_range("1990-12-19", "2025-10-23"));
  // --from and --to win, but nothing lies past as_of.
  CHECK(remote::sync_window(auth::Plan::free, as_of, date("2024-01-01"), date("2030-01-01"))
        == test::date_range("2024-01-01", "2025-10-23"));
  const auto empty = remote::sync_window(auth::Plan::pro, as_of, date("2026-01-01"), {});
  CHECK(empty.first > empty.last);
}

TEST_CASE("remote::missing_work: symbols lacking the same range share a group") {
  FakeRemote upstream;
  SyncClient client;
  auto filler = client.filler(upstream, auth::Plan::pro);
  const std::vector<std::string> symbols{"600519.SH", "600036.SH", "002594.SZ"};
  std::size_t cached = 0;
  const auto first =
      remote::missing_work(filler, symbols, test::date_range("2024-01-01", "2024-12-31"), cached);
  REQUIRE(first.size() == 1);
  CHECK(first[0].range == test::date_range("2024-01-01", "2024-12-31"));
  CHECK(first[0].symbols == symbols);
  CHECK(cached == 0);

  remote::FetchStats stats;
  REQUIRE_FALSE(filler.fetch({"600519.SH"}, test::date_range("2024-01-01", "2024-06-30"), stats));
  cached = 0;
  const auto next =
      remote::missing_work(filler, symbols, test::date_range("2024-01-01", "2024-12-31"), cached);
  REQUIRE(next.size() == 2);
  CHECK(next[0].range == test::date_range("2024-07-01", "2024-12-31"));
  CHECK(next[0].symbols == std::vector<std::string>{"600519.SH"});
  CHECK(next[1].range == test::date_range("2024-01-01", "2024-12-31"));
  CHECK(next[1].symbols == std::vector<std::string>{"600036.SH", "002594.SZ"});
  cached = 0;
  CHECK(remote::missing_work(filler, {"600519.SH"}, test::date_range("2024-02-01", "2024-03-01"),
                             cached)
            .empty());
  CHECK(cached == 1);
}

TEST_CASE("remote::fetch_groups: batches of the plan's maximum, halved on PLAN_LIMIT (D6)") {
  const std::vector<std::string> symbols{"600519.SH", "600036.SH", "002594.SZ"};
  const std::vector<remote::SyncGroup> groups{
      {test::date_range("2024-06-01", "2024-06-30"), symbols}};

  SUBCASE("a Basic key fetches three symbols in one request") {
    FakeRemote upstream(auth::Plan::basic);
    SyncClient client;
    auto filler = client.filler(upstream, auth::Plan::basic);
    remote::FetchStats stats;
    std::vector<std::size_t> progress;
    const auto refusal = remote::fetch_groups(
        filler, groups, auth::Plan::basic, stats,
        [&](std::size_t done, const remote::FetchStats&) { progress.push_back(done); });
    CHECK_FALSE(refusal);
    CHECK(stats.requests == 1);
    CHECK(stats.bars == 3 * 19); // June 2024 has 19 sessions
    CHECK(progress == std::vector<std::size_t>{3});
  }
  SUBCASE("a key thought Basic but Free on the remote: the batch halves to what it takes") {
    FakeRemote upstream(auth::Plan::free);
    SyncClient client;
    auto filler = client.filler(upstream, auth::Plan::basic);
    remote::FetchStats stats;
    std::vector<std::size_t> progress;
    const auto refusal = remote::fetch_groups(
        filler, groups, auth::Plan::basic, stats,
        [&](std::size_t done, const remote::FetchStats&) { progress.push_back(done); });
    CHECK_FALSE(refusal);
    // The three refused with PLAN_LIMIT, then one a request (3 / 2 = 1), which stays.
    CHECK(stats.requests == 4);
    CHECK(upstream.targets.size() == 4);
    CHECK(upstream.targets[0].find("symbol=600519.SH%2C600036.SH%2C002594.SZ")
          != std::string::npos);
    CHECK(stats.bars == 3 * 19);
    CHECK(progress == std::vector<std::size_t>{1, 1, 1});
  }
  SUBCASE("an unknown symbol is reported, the others fetched (D1)") {
    FakeRemote upstream(auth::Plan::free);
    SyncClient client;
    auto filler = client.filler(upstream, auth::Plan::free);
    remote::FetchStats stats;
    const std::vector<remote::SyncGroup> with_unknown{
        {test::date_range("2024-06-01", "2024-06-30"), {"600519.SH", "999999.SH", "600036.SH"}}};
    CHECK_FALSE(remote::fetch_groups(filler, with_unknown, auth::Plan::free, stats,
                                     [](std::size_t, const remote::FetchStats&) {}));
    CHECK(stats.unknown == std::vector<std::string>{"999999.SH"});
    CHECK(stats.bars == 2 * 19);
  }
  SUBCASE("any other refusal ends the sync and is passed on") {
    FakeRemote upstream(auth::Plan::pro);
    upstream.answer = [](const std::string&) -> std::optional<http::Reply> {
      return http::Reply{402, R"({"status":"ERROR","error":{"code":"INSUFFICIENT_CREDITS",)"
                                R"("message":"insufficient credits"}})"};
    };
    SyncClient client;
    auto filler = client.filler(upstream, auth::Plan::pro);
    remote::FetchStats stats;
    const auto refusal = remote::fetch_groups(filler, groups, auth::Plan::pro, stats,
                                              [](std::size_t, const remote::FetchStats&) {});
    REQUIRE(refusal);
    CHECK(refusal->status == 402);
    CHECK(upstream.targets.size() == 1);
  }
}
