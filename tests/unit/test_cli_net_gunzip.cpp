// cli/net/gunzip: gzip bodies (D17) as the network clients read them.
#include "cli/net/gunzip.hpp"

#include "server/gzip.hpp"

#include <doctest/doctest.h>

using ashare::cli::net::gunzip;

TEST_CASE("net::gunzip") {
  const std::string text = std::string(3000, 'a') + "the end";
  const auto packed = ashare::server::gzip(text);
  CHECK(gunzip(packed, 1 << 20) == text);
  SUBCASE("members in a row are one body, as gzip(1) reads them") {
    CHECK(gunzip(packed + ashare::server::gzip("!"), 1 << 20) == text + "!");
  }
  SUBCASE("a spliced member (the server's cached form, server/gzip.hpp)") {
    const auto tail = ashare::server::deflate_tail(text);
    CHECK(gunzip(ashare::server::gzip_spliced("{\"request_id\":1,", tail), 1 << 20)
          == "{\"request_id\":1," + text);
  }
  SUBCASE("not gzip, cut short, or past the limit: nothing") {
    CHECK_FALSE(gunzip("", 1 << 20).has_value());
    CHECK_FALSE(gunzip("plain text", 1 << 20).has_value());
    CHECK_FALSE(gunzip(packed.substr(0, packed.size() - 9), 1 << 20).has_value());
    CHECK_FALSE(gunzip(packed + "junk", 1 << 20).has_value());
    CHECK_FALSE(gunzip(packed, text.size() - 1).has_value());
    CHECK(gunzip(packed, text.size()) == text);
  }
}
