// cli/net/tcp_stream: the network module's TCP client (a quote server's binary protocol) against
// a scripted peer on 127.0.0.1: write all, read exactly N bytes, deadlines, an early close.
#include "cli/net/tcp_stream.hpp"

#include "loopback_peer.hpp"

#include <doctest/doctest.h>
#include <memory>

using namespace ashare::cli::net;
using ashare::test::LoopbackPeer;
using namespace std::chrono_literals;

namespace {

struct StreamCloser {
  void operator()(TcpStream* stream) const { close_tcp_stream(stream); }
};
using Stream = std::unique_ptr<TcpStream, StreamCloser>;

Stream connect_to(int port) {
  auto connected = open_tcp_stream("127.0.0.1", static_cast<unsigned short>(port), 2s);
  if (const auto* failure = std::get_if<Failure>(&connected)) {
    FAIL(failure->reason);
  }
  return Stream(std::get<TcpStream*>(connected));
}

std::span<const std::byte> bytes_of(const std::string& text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

std::string text_of(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

} // namespace

TEST_CASE("net::tcp_stream") {
  // The peer reads an HTTP-like head (its framing; the client's bytes are opaque to it) and
  // answers a length-prefixed reply, as a quote server answers a request.
  LoopbackPeer peer([](const LoopbackPeer::Request& request, int index) {
    if (request.head.starts_with("SILENT")) {
      return LoopbackPeer::Answer{"", false, true};
    }
    if (request.head.starts_with("SHORT")) {
      return LoopbackPeer::Answer{"0010abc", true};
    }
    return LoopbackPeer::Answer{"0005hello" + std::to_string(index)};
  });
  auto stream = connect_to(peer.port());
  SUBCASE("a request, then exactly the reply's length-prefixed bytes, twice on one connection") {
    for (int round = 0; round < 2; ++round) {
      REQUIRE_FALSE(write_all(*stream, bytes_of("GET\r\n\r\n"), 1s).has_value());
      std::vector<std::byte> length(4);
      REQUIRE_FALSE(read_exactly(*stream, length, 1s).has_value());
      CHECK(text_of(length) == "0005");
      std::vector<std::byte> body(6);
      REQUIRE_FALSE(read_exactly(*stream, body, 1s).has_value());
      CHECK(text_of(body) == "hello" + std::to_string(round));
    }
    CHECK(peer.connections() == 1);
  }
  SUBCASE("the peer closes before the bytes promised") {
    REQUIRE_FALSE(write_all(*stream, bytes_of("SHORT\r\n\r\n"), 1s).has_value());
    std::vector<std::byte> reply(14);
    const auto failure = read_exactly(*stream, reply, 1s);
    REQUIRE(failure.has_value());
    CHECK(failure->reason
          == "127.0.0.1:" + std::to_string(peer.port()) + ": reading: the connection was closed");
  }
  SUBCASE("no reply within the deadline") {
    REQUIRE_FALSE(write_all(*stream, bytes_of("SILENT\r\n\r\n"), 1s).has_value());
    std::vector<std::byte> reply(4);
    const auto failure = read_exactly(*stream, reply, 200ms);
    REQUIRE(failure.has_value());
    CHECK(failure->reason
          == "127.0.0.1:" + std::to_string(peer.port()) + ": timed out reading after 0.2 s");
  }
}

TEST_CASE("net::tcp_stream: nothing listens") {
  int port = 0;
  {
    LoopbackPeer closed([](const LoopbackPeer::Request&, int) { return LoopbackPeer::Answer{}; });
    port = closed.port();
  }
  const auto connected = open_tcp_stream("127.0.0.1", static_cast<unsigned short>(port), 1s);
  REQUIRE(std::holds_alternative<Failure>(connected));
  CHECK(std::get<Failure>(connected).reason
        == "127.0.0.1:" + std::to_string(port) + ": connection refused");
}
