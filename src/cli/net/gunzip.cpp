#include "cli/net/gunzip.hpp"

#include <array>
#include <zlib.h>

namespace ashare::cli::net {

std::optional<std::string> gunzip(std::string_view body, std::size_t limit) {
  z_stream stream{};
  // 16 + MAX_WBITS: a gzip header and trailer around the deflate data.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
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

} // namespace ashare::cli::net
