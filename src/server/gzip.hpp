// gzip content coding (D17): whether a request's Accept-Encoding allows it, and the compression.
#pragma once

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

} // namespace ashare::server
