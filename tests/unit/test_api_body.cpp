// api::Body (issue 35): a response body as its pieces, written text and spliced text in order,
// that owns what it refers to.
#include "core/api/body.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace ashare;

namespace {

std::vector<std::string> pieces_of(const api::Body& body) {
  std::vector<std::string> pieces;
  body.for_each_piece([&](std::string_view piece) { pieces.emplace_back(piece); });
  return pieces;
}

} // namespace

TEST_CASE("api::Body") {
  SUBCASE("text alone is one piece, its own prefix") {
    const api::Body body(std::string("{\"a\":1}"));
    CHECK(body.size() == 7);
    CHECK(body.str() == "{\"a\":1}");
    CHECK(body.prefix() == "{\"a\":1}");
    CHECK(pieces_of(body) == std::vector<std::string>{"{\"a\":1}"});
    CHECK(api::Body().empty());
    CHECK(api::Body().piece_count() == 0);
  }
  SUBCASE("spliced pieces go where they were spliced, between the written text") {
    const auto cached = std::make_shared<const std::string>("{bar 1},{bar 2}");
    const std::string_view view = *cached;
    api::Body body;
    body.text() = "[";
    body.splice(view, cached);
    body.text() += ",";
    body.splice(view.substr(0, 7), cached);
    body.splice(view.substr(8), cached);    // two in a row
    body.splice(view.substr(0, 0), cached); // an empty piece is no piece
    body.text() += "]";
    CHECK(body.str() == "[{bar 1},{bar 2},{bar 1}{bar 2}]");
    CHECK(body.size() == body.str().size());
    CHECK(body.prefix() == "[");
    CHECK(pieces_of(body)
          == std::vector<std::string>{"[", "{bar 1},{bar 2}", ",", "{bar 1}", "{bar 2}", "]"});
    CHECK(body.piece_count() == 6);
    body.clear();
    CHECK(body.empty());
    CHECK(body.str().empty());
  }
  SUBCASE("a body owns what it refers to, copies included, until the last goes") {
    std::weak_ptr<const std::string> watch;
    std::optional<api::Body> copy;
    {
      auto cached = std::make_shared<const std::string>(std::string(5000, 'x'));
      watch = cached;
      api::Body body(std::string("head:"));
      body.splice(*cached, cached);
      copy = body;
    } // the cache let its entry go, and the first body went
    REQUIRE_FALSE(watch.expired());
    CHECK(copy->str() == "head:" + std::string(5000, 'x'));
    copy.reset();
    CHECK(watch.expired());
  }
}
