// gzip content coding (D17): whether a request's Accept-Encoding allows it, and the compression.
#pragma once

#include "core/api/body.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ashare::server {

// Bodies below this size are sent as they are (D17 lets them stay plain).
inline constexpr std::size_t k_min_gzip_bytes = 1024;

// Return whether `accept_encoding` (the header's value) accepts gzip: a `gzip`, `x-gzip` or `*`
// coding with a non-zero q value, unless gzip itself is given q=0.
bool accepts_gzip(std::string_view accept_encoding);

// Return `body` gzip-compressed (RFC 1952, zlib's default level).
std::string gzip(std::string_view body);

// The end of a body deflated on its own (raw deflate, RFC 1951, ending with the final block), with
// the CRC-32 and size that a gzip trailer needs: what gzip_spliced() puts after a head.
struct DeflatedTail {
  std::string deflated;
  std::uint32_t crc = 0;
  std::size_t size = 0; // of the bytes before deflating
  // zlib's operator for appending `size` bytes to a CRC (crc32_combine_gen), made once so that
  // each splice combines its head's CRC in a few instructions, not a matrix power per request.
  unsigned long combine_op = 0;
};

// Return `tail` deflated on its own at zlib's default level.
DeflatedTail deflate_tail(std::string_view tail);

// Return a gzip member (RFC 1952) whose content is `head` followed by the bytes of `tail`: `head`
// as stored (uncompressed) deflate blocks, then tail->deflated, spliced in by reference (the body
// keeps `tail` alive). The head is not worth compressing (a request id is random hex), and the
// tail, compressed once, is reused (GzipCache) and never copied.
api::Body gzip_spliced(std::string_view head, std::shared_ptr<const DeflatedTail> tail);

} // namespace ashare::server
