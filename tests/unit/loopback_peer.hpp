// A scripted peer on 127.0.0.1 for the network clients' tests (test_cli_net_*.cpp, and the TDX
// connector's): it accepts connections one after another, reads each request (an HTTP head and
// its Content-Length body, or a TDX request: a 12-byte head whose bytes 6-7 count the rest plus
// 2), records them, and writes what the test's script answers, byte for byte, so that a test controls what a
// well-behaved library would never send (a 304 without Content-Length on a kept-alive
// connection, a close without a word, silence). Loopback only; every wait is bounded, and the
// peer tells when what it did has reached the client (close_reached_client), so that a test never
// sleeps for it.
#pragma once

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace ashare::test {

class LoopbackPeer {
public:
  struct Request {
    int connection = 0; // 1 for the first connection accepted, 2 for the next, ...
    std::string head;   // request line and headers, up to the blank line
    std::string body;
  };

  // What to do with a request: write `bytes`, then close the connection when `close` is set.
  // `silent` writes nothing and keeps the connection open (a server that never answers).
  struct Answer {
    std::string bytes;
    bool close = false;
    bool silent = false;
  };
  using Script = std::function<Answer(const Request& request, int index)>;
  enum class Framing { http, tdx };

  // Listen on 127.0.0.1 (a free port) and answer each request, framed as `framing` says, as
  // `script` says; `index` counts the requests from 0.
  explicit LoopbackPeer(Script script, Framing framing = Framing::http)
      : m_script(std::move(script)), m_framing(framing) {
    m_listener = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(m_listener >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(m_listener, 8) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    m_port = ntohs(address.sin_port);
    m_thread = std::thread([this] { serve(); });
  }

  ~LoopbackPeer() {
    m_stop = true;
    m_thread.join();
    ::close(m_listener);
  }
  LoopbackPeer(const LoopbackPeer&) = delete;
  LoopbackPeer& operator=(const LoopbackPeer&) = delete;

  int port() const { return m_port; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }

  std::vector<Request> requests() {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }

  int connections() {
    std::lock_guard lock(m_mutex);
    return m_connections;
  }

  // Stop answering: a silent answer ends, closing its connection (for a test that gives up on a
  // client waiting for it). The destructor does it too.
  void stop() { m_stop = true; }

  // Return whether a client's end of a connection to this peer has received the peer's close:
  // it is in CLOSE_WAIT in /proc/net/tcp, so the client sees the close the next time it looks.
  bool close_reached_client() const {
    std::ifstream table("/proc/net/tcp");
    std::string line;
    std::getline(table, line); // the header
    while (std::getline(table, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state;
      fields >> slot >> local >> remote >> state;
      const auto colon = remote.find(':');
      if (colon != std::string::npos && std::stoi(remote.substr(colon + 1), nullptr, 16) == m_port
          && state == "08") {
        return true;
      }
    }
    return false;
  }

  // Return an HTTP/1.1 answer of `status` with `headers` ("Name: value\r\n" lines) and `body`,
  // with a Content-Length.
  static std::string answer(int status, const std::string& headers, const std::string& body) {
    return "HTTP/1.1 " + std::to_string(status) + " Whatever\r\n" + headers
           + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }

private:
  // Wait at most 50 ms for `fd` to be readable; false when it is not (yet).
  static bool readable(int fd) {
    pollfd wait{fd, POLLIN, 0};
    return ::poll(&wait, 1, 50) == 1;
  }

  void serve() {
    while (!m_stop) {
      if (!readable(m_listener)) {
        continue;
      }
      const int connection = ::accept(m_listener, nullptr, nullptr);
      if (connection < 0) {
        continue;
      }
      int number = 0;
      {
        std::lock_guard lock(m_mutex);
        number = ++m_connections;
      }
      talk(connection, number);
      ::close(connection);
    }
  }

  // Read requests on `connection` and answer them until either side closes it or the peer stops.
  void talk(int connection, int number) {
    std::string pending;
    for (;;) {
      auto request = read_request(connection, pending);
      if (!request) {
        return;
      }
      request->connection = number;
      int index = 0;
      {
        std::lock_guard lock(m_mutex);
        index = static_cast<int>(m_requests.size());
        m_requests.push_back(*request);
      }
      const auto reply = m_script(*request, index);
      if (reply.silent) {
        while (!m_stop) { // silent until the peer stops: its stop flag looked at every 10 ms
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return;
      }
      ::send(connection, reply.bytes.data(), reply.bytes.size(), MSG_NOSIGNAL);
      if (reply.close) {
        return;
      }
    }
  }

  // Return the next request on `connection`, or nullopt when it closed or the peer stops.
  std::optional<Request> read_request(int connection, std::string& pending) {
    if (m_framing == Framing::tdx) {
      return read_tdx_request(connection, pending);
    }
    Request request;
    std::size_t end = std::string::npos;
    while ((end = pending.find("\r\n\r\n")) == std::string::npos) {
      if (!receive(connection, pending)) {
        return std::nullopt;
      }
    }
    request.head = pending.substr(0, end + 4);
    pending.erase(0, end + 4);
    const auto length = content_length(request.head);
    while (pending.size() < length) {
      if (!receive(connection, pending)) {
        return std::nullopt;
      }
    }
    request.body = pending.substr(0, length);
    pending.erase(0, length);
    return request;
  }

  // A TDX request: the 12-byte head, then its u16 length (bytes 6-7) less 2 (the method's bytes).
  std::optional<Request> read_tdx_request(int connection, std::string& pending) {
    while (pending.size() < 12) {
      if (!receive(connection, pending)) {
        return std::nullopt;
      }
    }
    const auto length = static_cast<std::size_t>(static_cast<unsigned char>(pending[6])
                                                 | (static_cast<unsigned char>(pending[7]) << 8));
    const auto body = length >= 2 ? length - 2 : 0;
    while (pending.size() < 12 + body) {
      if (!receive(connection, pending)) {
        return std::nullopt;
      }
    }
    Request request;
    request.head = pending.substr(0, 12);
    request.body = pending.substr(12, body);
    pending.erase(0, 12 + body);
    return request;
  }

  bool receive(int connection, std::string& into) {
    while (!m_stop) {
      if (!readable(connection)) {
        continue;
      }
      char buffer[4096];
      const auto got = ::recv(connection, buffer, sizeof buffer, 0);
      if (got <= 0) {
        return false;
      }
      into.append(buffer, static_cast<std::size_t>(got));
      return true;
    }
    return false;
  }

  static std::size_t content_length(const std::string& head) {
    std::string lower = head;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto at = lower.find("\r\ncontent-length:");
    return at == std::string::npos ? 0 : std::stoul(head.substr(at + 17));
  }

  Script m_script;
  Framing m_framing = Framing::http;
  int m_listener = -1;
  int m_port = 0;
  std::atomic<bool> m_stop{false};
  std::mutex m_mutex;
  std::vector<Request> m_requests;
  int m_connections = 0;
  std::thread m_thread;
};

} // namespace ashare::test
