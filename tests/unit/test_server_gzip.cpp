// server::accepts_gzip, server::gzip and server::GzipCache (D17): which Accept-Encoding values
// allow gzip, and bodies that inflate back to the same bytes, whole or spliced.
#include "server/gzip.hpp"
#include "server/gzip_cache.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

using namespace ashare;

namespace {

// Return the content of gzip member `compressed`; fails the test unless zlib finds it whole,
// its CRC-32 and size included.
std::string gunzip(const std::string& compressed) {
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
  std::string out(compressed.size() * 40 + 1024, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&stream, Z_FINISH);
  inflateEnd(&stream);
  REQUIRE(status == Z_STREAM_END);
  CHECK(stream.avail_in == 0); // nothing after the member
  out.resize(stream.total_out);
  return out;
}

std::string gunzip(const api::Body& compressed) {
  return gunzip(compressed.str());
}

std::shared_ptr<const server::DeflatedTail> deflated_shared(std::string_view tail) {
  return std::make_shared<const server::DeflatedTail>(server::deflate_tail(tail));
}

// A bars-like body whose request id is `request_id`, with `bars` bars.
std::string body_of(const std::string& request_id, int bars) {
  std::string body = "{\"status\":\"OK\",\"request_id\":\"" + request_id + "\",\"ohlc\":[";
  for (int i = 0; i < bars; ++i) {
    body += "{\"trade_date\":\"2024-01-02\",\"open\":1622.611,\"volume\":" + std::to_string(i)
            + "},";
  }
  return body + "{}]}";
}

} // namespace

TEST_CASE("server::accepts_gzip") {
  struct Row {
    const char* header;
    bool accepted;
  };
  const Row rows[] = {
      {"gzip", true},
      {"GZIP", true},
      {"x-gzip", true},
      {"gzip, deflate, br", true},
      {"deflate, gzip;q=0.5", true},
      {" gzip ; q=1.0 ", true},
      {"*", true},
      {"br, *;q=0.1", true},
      {"gzip;q=0", false},
      {"gzip;q=0.000", false},
      {"gzip;q=0, *", false}, // gzip named and refused: * does not bring it back
      {"identity", false},
      {"br, deflate", false},
      {"*;q=0", false},
      {"", false},
      {"gzipx", false},
  };
  for (const auto& row : rows) {
    CAPTURE(row.header);
    CHECK(server::accepts_gzip(row.header) == row.accepted);
  }
}

TEST_CASE("server::gzip inflates back to the same bytes") {
  std::string body = "{\"ohlc\":[";
  for (int i = 0; i < 500; ++i) {
    body += "{\"trade_date\":\"2024-01-02\",\"open\":1622.611,\"volume\":" + std::to_string(i) + "},";
  }
  body += "{}]}";
  const auto compressed = server::gzip(body);
  CHECK(compressed.size() < body.size() / 4);
  CHECK(static_cast<unsigned char>(compressed[0]) == 0x1f); // the gzip magic
  CHECK(static_cast<unsigned char>(compressed[1]) == 0x8b);

  CHECK(gunzip(compressed) == body);
  CHECK(server::gzip("").size() > 0); // a valid empty stream
}

TEST_CASE("server::gzip_spliced: a stored head and a tail deflated on its own inflate as one") {
  const std::string tail = body_of("x", 400);
  const auto deflated = deflated_shared(tail);
  CHECK(deflated->size == tail.size());
  for (const std::string& head : {std::string(), std::string("{\"request_id\":\"0f3c\""),
                                  std::string(65535, 'a'), std::string(70000, 'b')}) {
    CAPTURE(head.size());
    const auto spliced = server::gzip_spliced(head, deflated);
    CHECK(gunzip(spliced) == head + tail);
    CHECK(spliced.size() < head.size() + tail.size() / 4 + 64);
    CHECK(spliced.piece_count() == 3); // the deflated tail by reference, between head and trailer
  }
  CHECK(gunzip(server::gzip_spliced("head", deflated_shared(""))) == "head");
}

TEST_CASE("server::GzipCache: one deflate per ETag, each request's own id spliced in") {
  server::GzipCache cache(1 << 20);
  const std::string id_a = "3bc6bc05-6924-445c-8e01-6e8cd11f9799";
  const std::string id_b = "ea3dc41e-5a8b-4c8d-8982-22791bf15c7b";
  const auto first = cache.compress(body_of(id_a, 300), "W/\"1-aa\"", id_a);
  CHECK(gunzip(first) == body_of(id_a, 300));
  const auto held = cache.held_bytes();
  CHECK(held > 0);
  const auto second = cache.compress(body_of(id_b, 300), "W/\"1-aa\"", id_b);
  CHECK(gunzip(second) == body_of(id_b, 300));
  CHECK(cache.held_bytes() == held); // the tail was reused

  SUBCASE("another ETag is another entry") {
    CHECK(gunzip(cache.compress(body_of(id_a, 301), "W/\"2-aa\"", id_a)) == body_of(id_a, 301));
    CHECK(cache.held_bytes() > held);
  }
  SUBCASE("without an ETag or a request id in the body: compressed whole, nothing kept") {
    CHECK(gunzip(cache.compress(body_of(id_a, 10), "", id_a)) == body_of(id_a, 10));
    CHECK(gunzip(cache.compress(body_of(id_a, 10), "W/\"3-aa\"", id_b)) == body_of(id_a, 10));
    CHECK(gunzip(cache.compress(body_of(id_a, 10), "W/\"4-aa\"", "")) == body_of(id_a, 10));
    CHECK(cache.held_bytes() == held);
  }
  SUBCASE("a tail of another size under the same ETag is deflated again, never spliced wrong") {
    CHECK(gunzip(cache.compress(body_of(id_b, 299), "W/\"1-aa\"", id_b)) == body_of(id_b, 299));
  }
}

TEST_CASE("server::GzipCache: holds no more than its budget, least recently used out first") {
  const std::string id = "3bc6bc05-6924-445c-8e01-6e8cd11f9799";
  const auto one = server::deflate_tail(body_of("", 200)).deflated.size();
  server::GzipCache cache(one * 3);
  for (int i = 0; i < 10; ++i) {
    const auto body = body_of(id, 200 + i % 2);
    CHECK(gunzip(cache.compress(body, "W/\"" + std::to_string(i) + "\"", id)) == body);
    CHECK(cache.held_bytes() <= one * 3 + 16);
  }
  SUBCASE("a body keeps its tail, evicted or not, until it is sent") {
    const auto kept = cache.compress(body_of(id, 250), "W/\"kept\"", id);
    for (int i = 0; i < 10; ++i) {
      cache.compress(body_of(id, 200), "W/\"evict-" + std::to_string(i) + "\"", id);
    }
    CHECK(gunzip(kept) == body_of(id, 250));
  }
  // A tail larger than the whole budget is still answered.
  server::GzipCache tiny(16);
  const auto body = body_of(id, 500);
  CHECK(gunzip(tiny.compress(body, "W/\"big\"", id)) == body);
  CHECK(gunzip(tiny.compress(body, "W/\"big2\"", id)) == body);
}
