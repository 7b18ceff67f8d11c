// The network module's TCP client (cli/net/module.hpp: tcp_connect, tcp_write, tcp_read,
// tcp_close): a connection to a quote server whose protocol is the caller's, with a deadline on
// every step. One thread at a time, on the stream's own io_context.
#pragma once

#include "cli/net/module.hpp"

namespace ashare::cli::net {

// Connect to `host`:`port` within `timeout` (each address the name resolves to in turn).
std::variant<TcpStream*, Failure> open_tcp_stream(const std::string& host,
                                                  unsigned short port,
                                                  std::chrono::milliseconds timeout);

// Write all of `bytes` to `stream` within `timeout`.
std::optional<Failure> write_all(TcpStream& stream,
                                 std::span<const std::byte> bytes,
                                 std::chrono::milliseconds timeout);

// Read exactly `into.size()` bytes from `stream` within `timeout`.
std::optional<Failure> read_exactly(TcpStream& stream,
                                    std::span<std::byte> into,
                                    std::chrono::milliseconds timeout);

void close_tcp_stream(TcpStream* stream);

} // namespace ashare::cli::net
