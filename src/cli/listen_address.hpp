// Where `ashare serve` listens: the HOST:PORT of --listen, and whether that host is reachable
// only from this machine (issue 13: a server that other machines reach should speak TLS).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ashare::cli {

struct ListenAddress {
  std::string host; // without the brackets of an IPv6 literal
  int port = 0;     // 0 to 65535; 0 picks a free port
};

// Parse `text` as HOST:PORT ("127.0.0.1:8080", "[::1]:0", "localhost:8080"); nullopt when it
// is not one.
std::optional<ListenAddress> parse_listen(std::string_view text);

// Return whether `host` is a loopback address: 127.0.0.0/8, ::1 (in any spelling, or
// IPv4-mapped 127.x) or "localhost". Any other name or address counts as reachable from others.
bool is_loopback_host(std::string_view host);

// Return the warning `serve` prints when it would speak plain HTTP on `address` from another
// machine (not loopback, no TLS), or nullopt when there is nothing to warn of.
std::optional<std::string> plaintext_warning(const ListenAddress& address, bool tls);

} // namespace ashare::cli
