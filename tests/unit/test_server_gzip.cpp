// server::accepts_gzip and server::gzip (D17): which Accept-Encoding values allow gzip, and a
// body that inflates back to the same bytes.
#include "server/gzip.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

using namespace ashare;

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

  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
  std::string out(body.size() + 64, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  CHECK(inflate(&stream, Z_FINISH) == Z_STREAM_END);
  inflateEnd(&stream);
  out.resize(stream.total_out);
  CHECK(out == body);
  CHECK(server::gzip("").size() > 0); // a valid empty stream
}
