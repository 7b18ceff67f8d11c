#include "core/api/query_params.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ashare;

TEST_CASE("api::QueryParams::parse") {
  SUBCASE("name=value pairs in order, looked up by name") {
    const auto params = api::QueryParams::parse("symbol=600519.SH&limit=30&sort=desc");
    REQUIRE(params.items().size() == 3);
    CHECK(params.items()[0].name == "symbol");
    CHECK(params.find("symbol") == "600519.SH");
    CHECK(params.find("limit") == "30");
    CHECK(params.find("sort") == "desc");
    CHECK_FALSE(params.find("adjusted").has_value());
    CHECK_FALSE(params.find("SORT").has_value()); // names are case-sensitive
  }
  SUBCASE("decoding: + is a space, %XX a byte") {
    const auto params =
        api::QueryParams::parse("symbol=600519.SH%2C000001.sz&label=a+b%20c&x%3Dy=1");
    CHECK(params.find("symbol") == "600519.SH,000001.sz");
    CHECK(params.find("label") == "a b c");
    CHECK(params.find("x=y") == "1");
  }
  SUBCASE("the first occurrence wins; empty pairs are skipped; a bare name has an empty value") {
    const auto params = api::QueryParams::parse("&&limit=1&limit=2&flag&=v&");
    CHECK(params.find("limit") == "1");
    CHECK(params.find("flag") == "");
    CHECK(params.find("") == "v");
    CHECK(params.items().size() == 4);
  }
  SUBCASE("an empty query") {
    CHECK(api::QueryParams::parse("").items().empty());
  }
}

TEST_CASE("api::percent_decode and api::percent_encode") {
  CHECK(api::percent_decode("a%2Cb") == "a,b");
  CHECK(api::percent_decode("a%2cb") == "a,b");
  CHECK(api::percent_decode("100%") == "100%"); // malformed escapes stay as written
  CHECK(api::percent_decode("%zz%4") == "%zz%4");
  CHECK(api::percent_decode("%E8%B4%B5") == "\xE8\xB4\xB5");
  CHECK(api::percent_encode("600519.SH,000001.SZ") == "600519.SH%2C000001.SZ");
  CHECK(api::percent_encode("a b&c=d/e?f+g%") == "a%20b%26c%3Dd%2Fe%3Ff%2Bg%25");
  CHECK(api::percent_encode("AZaz09-._~") == "AZaz09-._~");
  CHECK(api::percent_encode("\xE8\xB4\xB5") == "%E8%B4%B5");
  for (const char* text : {"a b", "x,y", "100%", "+", "贵州茅台"}) {
    CAPTURE(std::string_view(text));
    CHECK(api::percent_decode(api::percent_encode(text)) == text);
  }
}

TEST_CASE("api::QueryParams::set and encode (for next_url)") {
  SUBCASE("set replaces the first occurrence in place and drops the others") {
    auto params = api::QueryParams::parse("symbol=a&limit=2&symbol=b&sort=desc");
    params.set("symbol", "600519.SH");
    CHECK(params.encode() == "symbol=600519.SH&limit=2&sort=desc");
  }
  SUBCASE("set appends a new parameter") {
    auto params = api::QueryParams::parse("limit=2");
    params.set("symbol", "600519.SH");
    CHECK(params.encode() == "limit=2&symbol=600519.SH");
  }
  SUBCASE("encode round-trips through parse") {
    const auto params = api::QueryParams::parse("symbol=600519.SH%2C000001.SZ&note=a+b&flag");
    CHECK(params.encode() == "symbol=600519.SH%2C000001.SZ&note=a%20b&flag=");
    const auto again = api::QueryParams::parse(params.encode());
    CHECK(again.find("symbol") == "600519.SH,000001.SZ");
    CHECK(again.find("note") == "a b");
    CHECK(again.find("flag") == "");
  }
}
