// cli/net/gunzip: gzip bodies (D17) and zlib ones (TDX, D18) as the network clients read them.
#include "cli/net/gunzip.hpp"

#include "server/gzip.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

using ashare::cli::net::gunzip;

TEST_CASE("net::gunzip") {
  const std::string text = std::string(3000, 'a') + "the end";
  const auto packed = ashare::server::gzip(text);
  CHECK(gunzip(packed, 1 << 20) == text);
  SUBCASE("members in a row are one body, as gzip(1) reads them") {
    CHECK(gunzip(packed + ashare::server::gzip("!"), 1 << 20) == text + "!");
  }
  SUBCASE("a spliced member (the server's cached form, server/gzip.hpp)") {
    const auto tail = std::make_shared<const ashare::server::DeflatedTail>(
      ashare::server::deflate_tail(text));
    CHECK(gunzip(ashare::server::gzip_spliced("{\"request_id\":1,", tail).str(), 1 << 20)
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

TEST_CASE("net::inflate_zlib: a TDX reply's flag-0x1c body") {
  const std::string text = std::string(2000, 'b') + "the bars";
  uLongf size = compressBound(text.size());
  std::string packed(size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(packed.data()), &size,
                   reinterpret_cast<const Bytef*>(text.data()), text.size()) == Z_OK);
  packed.resize(size);
  CHECK(ashare::cli::net::inflate_zlib(packed, text.size()) == text);
  CHECK_FALSE(ashare::cli::net::inflate_zlib(packed, text.size() - 1).has_value());       // past the limit
  CHECK_FALSE(ashare::cli::net::inflate_zlib(packed.substr(0, packed.size() - 3), 1 << 20).has_value()); // cut
  CHECK_FALSE(ashare::cli::net::inflate_zlib(ashare::server::gzip(text), 1 << 20).has_value()); // gzip is not zlib
  CHECK_FALSE(ashare::cli::net::inflate_zlib("plain", 1 << 20).has_value());
}
