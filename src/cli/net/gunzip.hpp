// Reading gzip content coding (D17) in the network module's clients (the server side compresses,
// server/gzip.hpp), and zlib's format of TDX replies (D18).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ashare::cli::net {

// Return `body` inflated from gzip (RFC 1952; members in a row are read as one, as gzip(1) does),
// or nullopt when it is not gzip, is cut short, or inflates to more than `limit` bytes.
std::optional<std::string> gunzip(std::string_view body, std::size_t limit);

// Return `body` inflated from zlib's format (RFC 1950: a TDX reply with flag 0x1c), or nullopt
// when it is not that, is cut short, or inflates to more than `limit` bytes.
std::optional<std::string> inflate_zlib(std::string_view body, std::size_t limit);

} // namespace ashare::cli::net
