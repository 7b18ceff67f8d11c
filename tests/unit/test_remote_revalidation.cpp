// remote::get_revalidated against a fake upstream (D17): a kept 200 is revalidated with
// If-None-Match, a 304 gives it back, a changed answer replaces it.
#include "fake_remote.hpp"
#include "testutil.hpp"

#include "core/remote/revalidation.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using test::FakeRemote;

namespace {

const std::string k_anchor =
  "/v1/ohlc/range/1/day/2023-09-25/2025-10-23?symbol=600519.SH&adjusted=false&sort=desc&limit=1";

} // namespace

TEST_CASE("remote::get_revalidated: an unchanged answer comes back from the cache on a 304") {
  FakeRemote upstream;
  test::TempDir dir;
  store::CacheStore cache(dir / "cache.db");
  const auto first = remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor);
  REQUIRE(first.status == 200);
  REQUIRE(first.etag.rfind("W/\"", 0) == 0);
  CHECK(upstream.conditions.empty()); // nothing kept yet: a plain request
  const auto kept = cache.find_tagged_answer(test::k_remote_base_url, k_anchor);
  REQUIRE(kept);
  CHECK(kept->etag == first.etag);
  CHECK(kept->body == first.body);

  const auto again = remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor);
  CHECK(upstream.conditions == std::vector<std::string>{first.etag});
  CHECK(upstream.direct(k_anchor, first.etag).status == 304); // what the remote answered
  CHECK(again.status == 200);
  CHECK(again.body == first.body); // the kept bytes, request_id included
  CHECK(again.etag == first.etag);

  SUBCASE("changed data: a 200 with a new tag, which replaces the kept one") {
    upstream.import_more("symbol,trade_date,open,high,low,close,volume,turnover\n"
                         "900002.SH,2025-10-23,10,12,9,11,100,1100\n");
    const auto changed =
        remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor);
    CHECK(changed.status == 200);
    CHECK(changed.etag != first.etag);
    CHECK(cache.find_tagged_answer(test::k_remote_base_url, k_anchor)->etag == changed.etag);
    remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor);
    CHECK(upstream.conditions.back() == changed.etag);
  }
  SUBCASE("kept per remote and per target") {
    CHECK_FALSE(cache.find_tagged_answer("http://other.test", k_anchor));
    CHECK_FALSE(cache.find_tagged_answer(test::k_remote_base_url, k_anchor + "&x=1"));
  }
}

TEST_CASE("remote::get_revalidated: answers without an ETag, and errors, are not kept") {
  FakeRemote upstream;
  test::TempDir dir;
  store::CacheStore cache(dir / "cache.db");
  upstream.answer = [](const std::string&) -> std::optional<http::Reply> {
    return http::Reply{200, "{}"}; // a remote that sends no ETag
  };
  CHECK(remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor).body == "{}");
  CHECK_FALSE(cache.find_tagged_answer(test::k_remote_base_url, k_anchor));
  upstream.answer = nullptr;
  const std::string invalid = "/v1/ohlc/range/1/day/2024-01-02/2024-01-01?symbol=600519.SH";
  CHECK(remote::get_revalidated(upstream, cache, test::k_remote_base_url, invalid).status == 400);
  CHECK_FALSE(cache.find_tagged_answer(test::k_remote_base_url, invalid));

  SUBCASE("a remote that ignores If-None-Match answers 200 each time") {
    upstream.ignores_etags = true;
    const auto first = remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor);
    const auto second = remote::get_revalidated(upstream, cache, test::k_remote_base_url, k_anchor);
    CHECK(second.status == 200);
    CHECK(upstream.conditions.size() == 1);
    CHECK(second.body != first.body); // a fresh request_id: the remote's own answer
  }
}
