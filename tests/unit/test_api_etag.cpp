// D17: the weak entity tags of api/etag and the If-None-Match comparison.
#include "core/api/etag.hpp"

#include <doctest/doctest.h>

using namespace ashare;

namespace {

store::DatasetInfo dataset(std::int64_t generation) {
  return store::DatasetInfo{*domain::Date::from_ymd(2024, 12, 31), "tushare", generation};
}

constexpr api::Caller k_pro{1, auth::Plan::pro, false};

} // namespace

TEST_CASE("etag: a data tag changes with the generation, the request, the plan and metering") {
  const std::string target = "/v1/ohlc/range/1/day/2024-01-01/2024-06-30?symbol=600519.SH";
  const auto tag = api::data_etag(dataset(7), target, k_pro);
  CHECK(tag.rfind("W/\"7-", 0) == 0);
  CHECK(tag == api::data_etag(dataset(7), target, api::Caller{2, auth::Plan::pro, false}));
  CHECK(tag != api::data_etag(dataset(8), target, k_pro));
  auto other_store = dataset(7);
  other_store.store_id = "0123456789abcdef0123456789abcdef";
  CHECK(tag != api::data_etag(other_store, target, k_pro)); // another store at the same generation
  CHECK(tag != api::data_etag(dataset(7), target + "&limit=5", k_pro));
  CHECK(tag != api::data_etag(dataset(7), target, api::Caller{1, auth::Plan::basic, false}));
  CHECK(tag != api::data_etag(dataset(7), target, api::Caller{1, auth::Plan::pro, true}));
  CHECK(api::body_etag("{}") == api::body_etag("{}"));
  CHECK(api::body_etag("{}") != api::body_etag("{ }"));
}

TEST_CASE("etag: If-None-Match compares weakly, any listed tag or *") {
  const std::string tag = "W/\"7-0123456789abcdef\"";
  CHECK(api::etag_matches(tag, tag));
  CHECK(api::etag_matches("\"7-0123456789abcdef\"", tag));
  CHECK(api::etag_matches("*", tag));
  CHECK(api::etag_matches(" \"a\", W/\"b\",\t" + tag, tag));
  CHECK(api::etag_matches("\"a\"," + tag + ",\"c\"", tag));
  CHECK_FALSE(api::etag_matches("", tag));
  CHECK_FALSE(api::etag_matches("W/\"7-0123456789abcdeF\"", tag));
  CHECK_FALSE(api::etag_matches("7-0123456789abcdef", tag)); // unquoted: malformed
  CHECK_FALSE(api::etag_matches("\"a\", bad, " + tag, tag)); // malformed list: no match
  CHECK_FALSE(api::etag_matches("W/", tag));
  CHECK_FALSE(api::etag_matches("\"unterminated", tag));
}
