// cli/fetch/tdx_connector: the TDX protocol over the network module's TCP client, against a
// scripted peer on 127.0.0.1 speaking TDX framing (loopback_peer.hpp): the set-up packets, a
// plain and a zlib reply (the recorded pytdx frame), and every way a reply can fail.
#include "cli/fetch/tdx_connector.hpp"

#include "loopback_peer.hpp"
#include "support/test_data.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <zlib.h>

using namespace ashare;
using namespace ashare::fetch::tdx;
using ashare::test::LoopbackPeer;
using namespace std::chrono_literals;

namespace {

std::string from_hex(std::string_view hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

// The reply frame pytdx's docstring recorded (tests/data/tdx_7709), its head and body.
std::string recorded_frame() {
  std::ifstream in(test::data_dir() / "tdx_7709" / "pytdx_get_security_bars_docstring_L14-16.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("recv: ")) {
      return from_hex(line.substr(6));
    }
  }
  FAIL("no recv: line");
  return {};
}

// A reply to `request`: a head echoing its sequence and method, flag `flag`, then `body` (sent as
// it is; `unzipped` is the size the head announces once inflated).
std::string reply_to(const LoopbackPeer::Request& request, const std::string& body, char flag = 0x0c,
                     std::size_t unzipped = std::string::npos) {
  if (unzipped == std::string::npos) {
    unzipped = body.size();
  }
  std::string head = from_hex("b1cb7400");
  head += flag;
  head += request.head.substr(1, 4); // the sequence
  head += '\0';
  head += request.head.substr(10, 2); // the method
  head += static_cast<char>(body.size() & 0xff);
  head += static_cast<char>(body.size() >> 8);
  head += static_cast<char>(unzipped & 0xff);
  head += static_cast<char>(unzipped >> 8);
  return head + body;
}

std::string zlib_of(const std::string& body) {
  uLongf size = compressBound(body.size());
  std::string out(size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(out.data()), &size,
                   reinterpret_cast<const Bytef*>(body.data()), body.size()) == Z_OK);
  out.resize(size);
  return out;
}

} // namespace

TEST_CASE("cli::TdxConnector: set up, then a plain and a zlib reply of the recorded bars") {
  const auto frame = recorded_frame();
  const auto body = frame.substr(16);
  LoopbackPeer peer(
      [&](const LoopbackPeer::Request& request, int index) {
        if (index < 3) {
          return LoopbackPeer::Answer{reply_to(request, std::string("\x01", 1))}; // set-up replies
        }
        if (index == 3) {
          return LoopbackPeer::Answer{reply_to(request, body)};
        }
        return LoopbackPeer::Answer{reply_to(request, zlib_of(body), 0x1c, body.size())};
      },
      LoopbackPeer::Framing::tdx);
  cli::TdxConnector connector(2s);
  auto channel = connector.connect("127.0.0.1:" + std::to_string(peer.port()));
  REQUIRE(channel);
  const auto request = security_bars_request(0x01640801, Market::sz, "000001", 9, 0, 10);
  for (int round = 0; round < 2; ++round) {
    auto reply = (*channel)->exchange(request);
    REQUIRE(reply);
    CHECK(reply->head.zlib == (round == 1));
    CHECK(reply->head.sequence == 0x01640801u);
    CHECK(std::string(reply->body.begin(), reply->body.end()) == body);
    const auto bars = parse_security_bars(reply->body);
    REQUIRE(bars);
    CHECK(bars->size() == 10);
  }
  const auto requests = peer.requests();
  REQUIRE(requests.size() == 5);
  const auto setup = setup_requests();
  for (int i = 0; i < 3; ++i) {
    CHECK(requests[i].head + requests[i].body == std::string(setup[i].begin(), setup[i].end()));
  }
  CHECK(requests[3].head + requests[3].body == std::string(request.begin(), request.end()));
  CHECK(peer.connections() == 1);
}

TEST_CASE("cli::TdxConnector: what fails is an error naming the host, never a wrong body") {
  const auto frame = recorded_frame();
  const auto body = frame.substr(16);
  LoopbackPeer peer(
      [&](const LoopbackPeer::Request& request, int index) {
        if (index % 4 != 3) {
          return LoopbackPeer::Answer{reply_to(request, "x")}; // set-up of each connection
        }
        const std::string kind = request.body.substr(2, 6); // the code asked for says what to do
        if (kind == "000001") { // a head that promises more than comes
          return LoopbackPeer::Answer{reply_to(request, body).substr(0, 60), true};
        }
        if (kind == "000002") { // no answer at all
          return LoopbackPeer::Answer{"", false, true};
        }
        if (kind == "000003") { // zlib that does not inflate to its announced size
          return LoopbackPeer::Answer{reply_to(request, zlib_of(body), 0x1c, body.size() + 1)};
        }
        return LoopbackPeer::Answer{"not a TDX reply at all...", true};
      },
      LoopbackPeer::Framing::tdx);
  cli::TdxConnector connector(300ms);
  const auto host = "127.0.0.1:" + std::to_string(peer.port());
  const auto ask = [&](const std::string& code) {
    auto channel = connector.connect(host);
    REQUIRE(channel);
    return (*channel)->exchange(security_bars_request(7, Market::sz, code, 4, 0, 800));
  };
  const auto cut = ask("000001");
  REQUIRE_FALSE(cut);
  CHECK(cut.error().message.find(host + ": ") == 0);
  const auto zipped = ask("000003");
  REQUIRE_FALSE(zipped);
  CHECK(zipped.error().message.find("does not inflate") != std::string::npos);
  const auto garbage = ask("000004");
  REQUIRE_FALSE(garbage);
  CHECK(garbage.error().message.find("malformed") != std::string::npos);
  const auto silent = ask("000002"); // last: a silent peer answers no one after it
  REQUIRE_FALSE(silent);
  CHECK(silent.error().message.find("timed out") != std::string::npos);

  CHECK_FALSE(connector.connect("127.0.0.1:0"));
  CHECK_FALSE(connector.connect("127.0.0.1:port"));
  CHECK_FALSE(connector.connect("[::1"));
}

TEST_CASE("cli::TdxConnector: a host that answers something other than TDX is said so, once a host") {
  // An HTTP server (what it answers to bytes it cannot read) and a peer answering random bytes.
  LoopbackPeer web(
      [](const LoopbackPeer::Request&, int) {
        return LoopbackPeer::Answer{LoopbackPeer::answer(400, "Connection: close\r\n", "bad request"), true};
      },
      LoopbackPeer::Framing::tdx);
  LoopbackPeer noise(
      [](const LoopbackPeer::Request&, int) {
        return LoopbackPeer::Answer{from_hex("3fa20017c5e80b66d2904e1c7a35f0019b"), true};
      },
      LoopbackPeer::Framing::tdx);
  const auto web_host = "127.0.0.1:" + std::to_string(web.port());
  const auto noise_host = "127.0.0.1:" + std::to_string(noise.port());
  const auto web_says = web_host + " does not answer as a TDX server (its reply starts \"HTTP/1.1 400 Wha\", "
                                   "not 0x0074cbb1)";
  const auto noise_says = noise_host + " does not answer as a TDX server (its reply starts "
                                       "3f a2 00 17 c5 e8 0b 66 d2 90 4e 1c 7a 35 f0 01, not 0x0074cbb1)";
  cli::TdxConnector connector(2s);
  const auto refused = connector.connect(web_host);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::invalid_input);
  CHECK(refused.error().message == web_says);
  const auto random = connector.connect(noise_host);
  REQUIRE_FALSE(random);
  CHECK(random.error().message == noise_says);

  // Through the client, over three rounds: each host is asked once and said once.
  Client client(connector, {{web_host, noise_host}, 3});
  const auto failed = client.daily_bars(Market::sz, "000001", std::nullopt);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().message == "every TDX host failed (2 attempts; " + web_says + "; " + noise_says + ")");
  CHECK(web.connections() == 2); // the connector's own connect above, then the client's
  CHECK(noise.connections() == 2);
}
