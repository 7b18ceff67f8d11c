#include "cli/net/tcp_stream.hpp"

#include "cli/net/io.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <memory>

namespace ashare::cli::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

struct TcpStream {
  asio::io_context io;
  beast::tcp_stream socket{io};
  std::string peer; // HOST:PORT, for messages
};

std::variant<TcpStream*, Failure> open_tcp_stream(const std::string& host,
                                                  unsigned short port,
                                                  std::chrono::milliseconds timeout) {
  auto stream = std::make_unique<TcpStream>();
  stream->peer = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":"
                 + std::to_string(port);
  tcp::resolver resolver(stream->io);
  boost::system::error_code ec;
  const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) {
    return Failure{"cannot resolve \"" + host + "\": " + reason_of(ec)};
  }
  stream->socket.expires_after(timeout);
  ec = run(stream->io, [&](auto handler) { stream->socket.async_connect(endpoints, handler); });
  if (ec) {
    return Failure{stream->peer + ": " + step_reason("connecting", ec, timeout)};
  }
  stream->socket.socket().set_option(tcp::no_delay(true), ec);
  return stream.release();
}

std::optional<Failure> write_all(TcpStream& stream,
                                 std::span<const std::byte> bytes,
                                 std::chrono::milliseconds timeout) {
  stream.socket.expires_after(timeout);
  const auto ec = run(stream.io, [&](auto handler) {
    asio::async_write(stream.socket, asio::buffer(bytes.data(), bytes.size()), handler);
  });
  if (ec) {
    return Failure{stream.peer + ": " + step_reason("writing", ec, timeout)};
  }
  return std::nullopt;
}

std::optional<Failure> read_exactly(TcpStream& stream,
                                    std::span<std::byte> into,
                                    std::chrono::milliseconds timeout) {
  stream.socket.expires_after(timeout);
  const auto ec = run(stream.io, [&](auto handler) {
    asio::async_read(stream.socket, asio::buffer(into.data(), into.size()), handler);
  });
  if (ec) {
    return Failure{stream.peer + ": " + step_reason("reading", ec, timeout)};
  }
  return std::nullopt;
}

void close_tcp_stream(TcpStream* stream) {
  delete stream;
}

} // namespace ashare::cli::net
