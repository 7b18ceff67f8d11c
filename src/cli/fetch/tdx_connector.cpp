#include "cli/fetch/tdx_connector.hpp"

#include "cli/listen_address.hpp"
#include "cli/net/client.hpp"

namespace ashare::cli {
namespace {

constexpr unsigned short k_default_port = 7709;

Error unreachable(const std::string& host, const std::string& why) {
  return make_error(ErrorCode::service_unavailable, host + ": " + why);
}

class TdxChannel final : public fetch::tdx::Channel {
public:
  TdxChannel(net::TcpClient stream, std::string host, std::chrono::milliseconds timeout)
      : m_stream(std::move(stream)), m_host(std::move(host)), m_timeout(timeout) {}

  Result<fetch::tdx::Reply> exchange(std::span<const std::uint8_t> request) override {
    if (auto failure = m_stream.write(std::as_bytes(request), m_timeout)) {
      return unreachable(m_host, failure->reason);
    }
    std::vector<std::uint8_t> head(fetch::tdx::k_reply_head_size);
    if (auto failure = m_stream.read(std::as_writable_bytes(std::span(head)), m_timeout)) {
      return unreachable(m_host, failure->reason);
    }
    if (!m_answered) {
      // The first reply says whether the host speaks TDX at all (an HTTP server, say, does not).
      m_not_tdx = fetch::tdx::not_tdx_reply(head);
      if (m_not_tdx) {
        return make_error(ErrorCode::invalid_input, m_host + " does not answer as a TDX server (" + *m_not_tdx + ")");
      }
      m_answered = true;
    }
    auto parsed = fetch::tdx::parse_reply_head(head);
    if (!parsed) {
      return parsed.error();
    }
    fetch::tdx::Reply reply{*parsed, std::vector<std::uint8_t>(parsed->zipped_size)};
    if (auto failure = m_stream.read(std::as_writable_bytes(std::span(reply.body)), m_timeout)) {
      return unreachable(m_host, failure->reason);
    }
    if (reply.head.zlib) {
      auto inflated = net::zlib_inflate(
          std::string_view(reinterpret_cast<const char*>(reply.body.data()), reply.body.size()),
          reply.head.unzipped_size);
      if (!inflated || inflated->size() != reply.head.unzipped_size) {
        return make_error(ErrorCode::invalid_input,
                          "the TDX reply is malformed: a zlib body that does not inflate to its "
                              + std::to_string(reply.head.unzipped_size) + " bytes");
      }
      reply.body.assign(inflated->begin(), inflated->end());
    }
    return reply;
  }

  // Return whether the host's first reply was no TDX reply.
  bool is_not_tdx() const { return m_not_tdx.has_value(); }

private:
  net::TcpClient m_stream;
  std::string m_host;
  std::chrono::milliseconds m_timeout;
  bool m_answered = false;               // a reply head with TDX's magic came
  std::optional<std::string> m_not_tdx; // what came first instead
};

// Split `host` into an address and a port: "address" alone for the default port, else HOST:PORT
// as `serve --listen` reads it ("name:port", "[v6]:port"), with a port from 1.
Result<std::pair<std::string, unsigned short>> address_and_port(const std::string& host) {
  if (!host.empty() && host.find(':') == std::string::npos) {
    return std::pair{host, k_default_port};
  }
  const auto parsed = parse_listen(host);
  if (!parsed || parsed->port == 0 || parsed->host.empty() || parsed->host.front() == '[') {
    return make_error(ErrorCode::invalid_input,
                      "the TDX host " + host + " is not address:port (port 1 to 65535)");
  }
  return std::pair{parsed->host, static_cast<unsigned short>(parsed->port)};
}

} // namespace

Result<std::unique_ptr<fetch::tdx::Channel>> TdxConnector::connect(const std::string& host) {
  const auto split = address_and_port(host);
  if (!split) {
    return split.error();
  }
  const auto& [address, port] = *split;
  auto connected = net::TcpClient::connect(address, port, m_timeout);
  if (auto* failure = std::get_if<net::Failure>(&connected)) {
    return unreachable(host, failure->reason);
  }
  auto channel = std::make_unique<TdxChannel>(std::move(std::get<net::TcpClient>(connected)), host, m_timeout);
  for (const auto& packet : fetch::tdx::setup_requests()) {
    if (auto reply = channel->exchange(packet); !reply) {
      // Not a TDX server: an INVALID_INPUT error as is, so that the client asks that host no more.
      return channel->is_not_tdx() ? reply.error()
                                   : unreachable(host, "setting the connection up: " + reply.error().message);
    }
  }
  return std::unique_ptr<fetch::tdx::Channel>(std::move(channel));
}

} // namespace ashare::cli
