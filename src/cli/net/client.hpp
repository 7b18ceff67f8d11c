// The network clients as the commands use them: owners of the network module's sessions and
// streams (cli/net/module.hpp). Their first use in `ashare` moves the command to `ashare-net`, so
// that an answer from the cache, and every local command, never pays for the network code (issue
// 11, P2 and P6).
#pragma once

#include "cli/net/module.hpp"

#include <memory>
#include <utility>

namespace ashare::cli::net {

// An HTTP client for one base URL, whose connection it keeps alive between exchanges.
class HttpClient {
public:
  explicit HttpClient(HttpSettings settings) : m_settings(std::move(settings)) {}
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Send `request` and return the response or why there is none. Throws std::runtime_error only
  // when the module cannot be loaded.
  HttpOutcome exchange(const HttpRequest& request);

  const HttpSettings& settings() const { return m_settings; }

private:
  HttpSettings m_settings;
  HttpSession* m_session = nullptr; // opened by the first exchange
};

// Return `body` inflated from zlib's format, or nullopt (cli/net/gunzip.hpp). Throws
// std::runtime_error only when the module cannot be loaded.
std::optional<std::string> zlib_inflate(std::string_view body, std::size_t limit);

// A TCP connection, closed when destroyed.
class TcpClient {
public:
  // Connect to `host`:`port` within `timeout`; the Failure when it cannot. Throws
  // std::runtime_error only when the module cannot be loaded.
  static std::variant<TcpClient, Failure> connect(const std::string& host,
                                                  unsigned short port,
                                                  std::chrono::milliseconds timeout);
  ~TcpClient();
  TcpClient(TcpClient&& other) noexcept : m_stream(std::exchange(other.m_stream, nullptr)) {}
  TcpClient& operator=(TcpClient&& other) noexcept;

  // Write all of `bytes` within `timeout`.
  std::optional<Failure> write(std::span<const std::byte> bytes, std::chrono::milliseconds timeout);

  // Read exactly `into.size()` bytes within `timeout`.
  std::optional<Failure> read(std::span<std::byte> into, std::chrono::milliseconds timeout);

private:
  explicit TcpClient(TcpStream* stream) : m_stream(stream) {}
  TcpStream* m_stream;
};

} // namespace ashare::cli::net
