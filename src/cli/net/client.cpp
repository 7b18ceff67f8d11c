#include "cli/net/client.hpp"

#include <utility>

namespace ashare::cli::net {

HttpClient::~HttpClient() {
  if (m_session != nullptr) {
    module().http_close(m_session);
  }
}

HttpOutcome HttpClient::exchange(const HttpRequest& request) {
  const auto& net = module();
  if (m_session == nullptr) {
    auto opened = net.http_open(m_settings);
    if (auto* failure = std::get_if<Failure>(&opened)) {
      return std::move(*failure);
    }
    m_session = std::get<HttpSession*>(opened);
  }
  return net.http_exchange(*m_session, request);
}

std::optional<std::string> zlib_inflate(std::string_view body, std::size_t limit) {
  return module().zlib_inflate(body, limit);
}

std::variant<TcpClient, Failure> TcpClient::connect(const std::string& host,
                                                    unsigned short port,
                                                    std::chrono::milliseconds timeout) {
  auto connected = module().tcp_connect(host, port, timeout);
  if (auto* failure = std::get_if<Failure>(&connected)) {
    return std::move(*failure);
  }
  return TcpClient(std::get<TcpStream*>(connected));
}

TcpClient::~TcpClient() {
  if (m_stream != nullptr) {
    module().tcp_close(m_stream);
  }
}

TcpClient& TcpClient::operator=(TcpClient&& other) noexcept {
  if (this != &other) {
    if (m_stream != nullptr) {
      module().tcp_close(m_stream);
    }
    m_stream = std::exchange(other.m_stream, nullptr);
  }
  return *this;
}

std::optional<Failure> TcpClient::write(std::span<const std::byte> bytes,
                                        std::chrono::milliseconds timeout) {
  return module().tcp_write(*m_stream, bytes, timeout);
}

std::optional<Failure> TcpClient::read(std::span<std::byte> into,
                                       std::chrono::milliseconds timeout) {
  return module().tcp_read(*m_stream, into, timeout);
}

} // namespace ashare::cli::net
