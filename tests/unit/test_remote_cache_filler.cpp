// remote::CacheFiller against a fake upstream: /healthz at most once per run and only when a
// session close has passed, pages along next_url saved with their coverage, and the D8 anchor.
#include "fake_remote.hpp"
#include "testutil.hpp"

#include "core/remote/cache_filler.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using test::date;
using test::FakeRemote;

TEST_CASE("remote::CacheFiller::as_of: /healthz when due, at most once a run") {
  FakeRemote upstream;
  test::TempDir dir;
  store::CacheStore cache(dir / "cache.db");
  {
    remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::pro,
                               test::k_fake_now_ms);
    CHECK_FALSE(filler.recorded_as_of());
    const auto as_of = filler.as_of(false);
    REQUIRE(as_of);
    CHECK(*as_of == date("2025-10-23"));
    CHECK(filler.as_of(true).ok()); // forced, but already asked in this run
    CHECK(upstream.targets == std::vector<std::string>{"/healthz"});
  }
  {
    // The next run before another session close: the recorded as_of, nothing asked.
    remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::pro,
                               test::k_fake_now_ms);
    CHECK(*filler.as_of(false) == date("2025-10-23"));
    CHECK(upstream.targets.size() == 1);
    // Forced (--refresh, sync): asked again.
    CHECK(*filler.as_of(true) == date("2025-10-23"));
    CHECK(upstream.targets.size() == 2);
  }
  {
    // A run after the next session close (2025-10-24 15:00 UTC+8) asks again.
    const std::int64_t after_close = test::k_fake_now_ms + 7 * 3'600'000;
    remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::pro,
                               after_close);
    CHECK(filler.as_of(false).ok());
    CHECK(upstream.targets.size() == 3);
  }
  SUBCASE("a /healthz that is not 200 is an error") {
    upstream.answer = [](const std::string&) -> std::optional<http::Reply> {
      return http::Reply{503, "{}"};
    };
    remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::pro,
                               test::k_fake_now_ms);
    const auto as_of = filler.as_of(true);
    REQUIRE_FALSE(as_of);
    CHECK(as_of.error().message == "http://remote.test/healthz answered HTTP 503");
  }
}

TEST_CASE("remote::CacheFiller::fetch: raw pages along next_url, each saved with its coverage") {
  FakeRemote upstream(auth::Plan::free);
  test::TempDir dir;
  store::CacheStore cache(dir / "cache.db");
  remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::free,
                             test::k_fake_now_ms);
  remote::FetchStats stats;
  // Two symbols are above the Free maximum of one: the remote's refusal comes back unchanged.
  const auto refused =
      filler.fetch({"600519.SH", "600036.SH"}, test::date_range("2024-01-01", "2024-12-31"), stats);
  REQUIRE(refused);
  CHECK(refused->status == 403);

  REQUIRE_FALSE(filler.fetch({"600519.SH"}, test::date_range("2023-10-23", "2030-01-01"), stats));
  CHECK(stats.bars == 486); // 2023-10-23 to 2025-10-23: under the Free limit of 500, one page
  CHECK(upstream.targets.back()
        == "/v1/ohlc/range/1/day/2023-10-23/2030-01-01?symbol=600519.SH&adjusted=false&sort=asc");
  // Covered up to as_of (later days have no bars yet); the window reached as_of: the anchor.
  CHECK(filler.coverage("600519.SH")
        == std::vector<remote::DateRange>{test::date_range("2023-10-23", "2025-10-23")});
  const auto anchor = cache.find_anchor(test::k_remote_base_url, "600519.SH");
  REQUIRE(anchor);
  CHECK(anchor->factor == 8.305);
  CHECK(stats.anchored.contains("600519.SH"));
  // Raw prices were saved (adjusted=false): the last close as in the fixture.
  const auto bars = cache.load_bars(test::k_remote_base_url, "600519.SH", date("2025-10-23"),
                                    date("2025-10-23"), domain::SortOrder::asc, 1);
  REQUIRE(bars.size() == 1);
  CHECK(bars[0].close == 1467.98);
}

TEST_CASE("remote::CacheFiller::fetch: follows next_url to the end of the window (D8)") {
  FakeRemote upstream(auth::Plan::free, test::daily_bars_csv());
  test::TempDir dir;
  store::CacheStore cache(dir / "cache.db");
  remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::free,
                             test::k_fake_now_ms);
  remote::FetchStats stats;
  REQUIRE_FALSE(filler.fetch({"900001.SH"}, test::date_range("2024-01-01", "2025-08-22"), stats));
  CHECK(stats.requests == 2); // 500, then the 100 after 2025-05-14
  CHECK(stats.bars == 600);
  CHECK(upstream.targets.back()
        == "/v1/ohlc/range/1/day/2025-05-15/2025-08-22?symbol=900001.SH&adjusted=false&sort=asc");
  CHECK(filler.coverage("900001.SH")
        == std::vector<remote::DateRange>{test::date_range("2024-01-01", "2025-08-22")});
  // The window ended before as_of (2025-10-23): its last bar is not known to be the latest.
  CHECK_FALSE(cache.find_anchor(test::k_remote_base_url, "900001.SH"));
}

TEST_CASE("remote::CacheFiller::fetch_anchor: the latest bar's factor (D8)") {
  FakeRemote upstream(auth::Plan::free);
  test::TempDir dir;
  store::CacheStore cache(dir / "cache.db");
  remote::CacheFiller filler(upstream, cache, test::k_remote_base_url, auth::Plan::free,
                             test::k_fake_now_ms);
  remote::FetchStats stats;
  REQUIRE_FALSE(filler.fetch_anchor("600036.SH", date("2025-10-23"), stats));
  // Within the Free plan's reach, newest first, one bar.
  CHECK(upstream.targets.back()
        == "/v1/ohlc/range/1/day/2023-10-23/2025-10-23?symbol=600036.SH&adjusted=false&sort=desc"
           "&limit=1");
  const auto anchor = cache.find_anchor(test::k_remote_base_url, "600036.SH");
  REQUIRE(anchor);
  CHECK(anchor->as_of == date("2025-10-23"));
  CHECK(filler.coverage("600036.SH")
        == std::vector<remote::DateRange>{test::date_range("2025-10-23", "2025-10-23")});
  SUBCASE("an unknown symbol is the remote's 400 INVALID_SYMBOL, and nothing is saved") {
    const auto refusal = filler.fetch_anchor("999999.SH", date("2025-10-23"), stats);
    REQUIRE(refusal);
    CHECK(refusal->status == 400);
    CHECK_FALSE(cache.find_anchor(test::k_remote_base_url, "999999.SH"));
  }
}
