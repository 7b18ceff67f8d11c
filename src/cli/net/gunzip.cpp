#include "cli/net/gunzip.hpp"

#include <array>
#include <zlib.h>

namespace ashare::cli::net {

namespace {

// Inflate `body` with zlib's `window_bits` (which say the wrapper: gzip or zlib).
std::optional<std::string> inflate_body(std::string_view body, int window_bits, std::size_t limit) {
  z_stream stream{};
  if (inflateInit2(&stream, window_bits) != Z_OK) {
    return std::nullopt;
  }
  std::string out;
  std::array<char, 64 * 1024> chunk{};
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uInt>(body.size());
  int status = Z_OK;
  while (status != Z_STREAM_END || stream.avail_in > 0) {
    if (status == Z_STREAM_END && inflateReset(&stream) != Z_OK) { // the next member
      break;
    }
    stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
    stream.avail_out = static_cast<uInt>(chunk.size());
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk.data(), chunk.size() - stream.avail_out);
    const bool stuck = status == Z_BUF_ERROR && stream.avail_in == 0; // cut short
    if ((status != Z_OK && status != Z_STREAM_END) || stuck || out.size() > limit) {
      inflateEnd(&stream);
      return std::nullopt;
    }
  }
  inflateEnd(&stream);
  return out;
}

} // namespace

std::optional<std::string> gunzip(std::string_view body, std::size_t limit) {
  return inflate_body(body, 16 + MAX_WBITS, limit); // a gzip header and trailer around deflate
}

std::optional<std::string> inflate_zlib(std::string_view body, std::size_t limit) {
  return inflate_body(body, MAX_WBITS, limit); // zlib's two-byte header and Adler-32 trailer
}

} // namespace ashare::cli::net
