// Fnv1a (core/fnv1a.hpp): the published FNV-1a 64 values, so that ETags and export fingerprints
// stay the same from build to build.
#include "core/fnv1a.hpp"

#include <doctest/doctest.h>

TEST_CASE("Fnv1a: the published 64-bit test values") {
  CHECK(ashare::Fnv1a().value() == 0xcbf29ce484222325ULL);
  CHECK(ashare::Fnv1a().add_bytes("a").value() == 0xaf63dc4c8601ec8cULL);
  CHECK(ashare::Fnv1a().add_bytes("foobar").value() == 0x85944171f73967e8ULL);
  CHECK(ashare::Fnv1a().add_u64(0x61).value()
        == ashare::Fnv1a().add_bytes(std::string_view("a\0\0\0\0\0\0\0", 8)).value());
}
