#include "raw_http.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/time.h>
#include <thread>
#include <unistd.h>
#include <zlib.h>

namespace bb {
namespace {

std::string lower(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  const auto last = text.find_last_not_of(" \t");
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

// The last OpenSSL error as text, for an exception.
std::string tls_error(const std::string& what) {
  char text[256] = {};
  ERR_error_string_n(ERR_get_error(), text, sizeof text);
  return what + ": " + text;
}

} // namespace

std::string raw_request(const std::string& target,
                        const std::optional<std::string>& key,
                        const std::string& extra_headers,
                        const std::string& method) {
  return method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         + (key ? "Authorization: Bearer " + *key + "\r\n" : std::string()) + extra_headers
         + "\r\n";
}

std::string gunzip(std::string_view compressed) {
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) {
    throw std::runtime_error("inflateInit2 failed");
  }
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    char chunk[65536];
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      // Z_BUF_ERROR: the input ended before the member did.
      const std::string message = stream.msg != nullptr ? stream.msg : "truncated";
      inflateEnd(&stream);
      throw std::runtime_error("not a whole gzip member: " + message);
    }
    out.append(chunk, sizeof chunk - stream.avail_out);
  }
  const auto after = stream.avail_in;
  inflateEnd(&stream);
  if (after != 0) {
    throw std::runtime_error(std::to_string(after) + " bytes after the gzip member");
  }
  return out;
}

std::string RawResponse::header(const std::string& name) const {
  const auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

std::size_t RawResponse::header_count(const std::string& name) const {
  return headers.count(lower(name));
}

RawConnection::RawConnection(int port, const RawOptions& options) {
  m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_fd < 0) {
    throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  if (options.receive_buffer) {
    ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &*options.receive_buffer,
                 sizeof *options.receive_buffer);
  }
  if (options.max_segment) {
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_MAXSEG, &*options.max_segment, sizeof *options.max_segment);
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(m_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int saved = errno;
    ::close(m_fd);
    throw std::runtime_error(std::string("connect: ") + std::strerror(saved));
  }
  if (!options.tls_ca) {
    return;
  }
  const auto& tls_ca = options.tls_ca;
  // OpenSSL writes with write(2), not send(MSG_NOSIGNAL): a server that closed must fail a write,
  // not end the tests (the children spawned start with default dispositions all the same).
  std::signal(SIGPIPE, SIG_IGN);
  // OpenSSL reads and writes the blocking socket itself: bound each of its waits.
  const timeval limit{30, 0};
  ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  ::setsockopt(m_fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  m_tls_context = SSL_CTX_new(TLS_client_method());
  if (m_tls_context == nullptr
      || SSL_CTX_load_verify_locations(m_tls_context, tls_ca->c_str(), nullptr) != 1) {
    const auto message = tls_error("cannot load " + tls_ca->string());
    release();
    throw std::runtime_error(message);
  }
  SSL_CTX_set_verify(m_tls_context, SSL_VERIFY_PEER, nullptr);
  m_ssl = SSL_new(m_tls_context);
  X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(m_ssl), "127.0.0.1");
  SSL_set_fd(m_ssl, m_fd);
  if (SSL_connect(m_ssl) != 1) {
    const auto message = tls_error("TLS handshake");
    release();
    throw std::runtime_error(message);
  }
}

RawConnection::~RawConnection() {
  release();
}

void RawConnection::release() {
  if (m_ssl != nullptr) {
    SSL_free(m_ssl);
    m_ssl = nullptr;
  }
  if (m_tls_context != nullptr) {
    SSL_CTX_free(m_tls_context);
    m_tls_context = nullptr;
  }
  if (m_fd >= 0) {
    ::close(m_fd);
    m_fd = -1;
  }
}

std::pair<std::optional<RawConnection::TcpEnd>, std::optional<RawConnection::TcpEnd>>
RawConnection::tcp_ends(int server_port) const {
  if (m_ssl != nullptr) {
    throw std::logic_error("/proc/net/tcp tells plain TCP connections only");
  }
  sockaddr_in address{};
  socklen_t length = sizeof address;
  ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length);
  const int our_port = ntohs(address.sin_port);
  // Lines: "sl local_address rem_address st tx_queue:rx_queue ...", addresses as HEX_IP:HEX_PORT.
  std::ifstream table("/proc/net/tcp");
  std::string line;
  std::getline(table, line); // the header
  std::pair<std::optional<TcpEnd>, std::optional<TcpEnd>> ends;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::string slot, local, remote, state, queues;
    fields >> slot >> local >> remote >> state >> queues;
    const auto port_of = [](const std::string& endpoint) {
      return std::stoi(endpoint.substr(endpoint.find(':') + 1), nullptr, 16);
    };
    if (queues.find(':') == std::string::npos) {
      continue;
    }
    const TcpEnd end{std::stoi(state, nullptr, 16),
                     std::stoul(queues.substr(0, queues.find(':')), nullptr, 16),
                     std::stoul(queues.substr(queues.find(':') + 1), nullptr, 16)};
    if (port_of(local) == server_port && port_of(remote) == our_port) {
      ends.first = end;
    } else if (port_of(local) == our_port && port_of(remote) == server_port) {
      ends.second = end;
    }
  }
  return ends;
}

std::size_t RawConnection::sent_by_server(int server_port) const {
  const auto [server, ours] = tcp_ends(server_port);
  if (!server || !ours) {
    throw std::runtime_error("the connection to port " + std::to_string(server_port)
                             + " is not in /proc/net/tcp");
  }
  return m_received + server->unsent + ours->unread;
}

bool RawConnection::held_by_server(int server_port) const {
  const auto server = tcp_ends(server_port).first;
  return server && server->state == 1;
}

void RawConnection::read_slowly(std::size_t chunk, std::chrono::milliseconds pause) {
  m_chunk = std::max<std::size_t>(1, chunk);
  m_pause = pause;
}

bool RawConnection::send(std::string_view bytes) {
  while (m_ssl != nullptr && !bytes.empty()) {
    std::size_t sent = 0;
    if (SSL_write_ex(m_ssl, bytes.data(), bytes.size(), &sent) != 1) {
      return false;
    }
    bytes.remove_prefix(sent);
  }
  while (!bytes.empty()) {
    const ssize_t sent = ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) {
      continue;
    }
    if (sent <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

RawConnection::Received RawConnection::receive(std::chrono::steady_clock::time_point deadline,
                                               std::string* into) {
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return Received::timeout;
    }
    if (m_pause.count() > 0) {
      std::this_thread::sleep_for(std::min(m_pause, left));
    }
    // Over TLS, what OpenSSL has decrypted already is there without the socket being readable.
    if (m_ssl == nullptr || SSL_pending(m_ssl) == 0) {
      pollfd entry{m_fd, POLLIN, 0};
      const int ready = ::poll(&entry, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) {
        continue;
      }
      if (ready <= 0) {
        return Received::timeout;
      }
    }
    char chunk[65536];
    const std::size_t most = std::min(sizeof chunk, m_chunk);
    std::size_t got = 0;
    if (m_ssl != nullptr) {
      if (SSL_read_ex(m_ssl, chunk, most, &got) != 1) {
        const int error = SSL_get_error(m_ssl, 0);
        if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
          continue; // a record not yet whole, or one that carried no data (a session ticket)
        }
        return Received::closed; // close_notify, end of file, reset or a bad record
      }
    } else {
      const ssize_t n = ::recv(m_fd, chunk, most, 0);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        return Received::closed; // end of file or reset
      }
      got = static_cast<std::size_t>(n);
    }
    m_received += got;
    if (into != nullptr) {
      into->append(chunk, got);
    }
    return Received::data;
  }
}

bool RawConnection::fill(std::chrono::steady_clock::time_point deadline) {
  return receive(deadline, &m_buffer) == Received::data;
}

std::optional<RawResponse> RawConnection::read_response(std::chrono::milliseconds timeout,
                                                        bool head_only) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (m_buffer.find("\r\n\r\n") == std::string::npos) {
    if (!fill(deadline)) {
      return std::nullopt;
    }
  }
  const auto end = m_buffer.find("\r\n\r\n");
  RawResponse response;
  response.head = m_buffer.substr(0, end);
  std::size_t line_end = response.head.find("\r\n");
  const std::string status_line = response.head.substr(0, line_end);
  if (status_line.rfind("HTTP/1.", 0) != 0 || status_line.size() < 12) {
    throw std::runtime_error("not an HTTP response: " + status_line.substr(0, 80)
                             + (status_line.size() > 80 ? "..." : ""));
  }
  response.status = std::stoi(status_line.substr(9, 3));
  while (line_end != std::string::npos && line_end < response.head.size()) {
    const auto next = response.head.find("\r\n", line_end + 2);
    const auto line = response.head.substr(line_end + 2, next == std::string::npos
                                                             ? std::string::npos
                                                             : next - line_end - 2);
    const auto colon = line.find(':');
    if (colon != std::string::npos) {
      response.headers.emplace(lower(line.substr(0, colon)), trim(line.substr(colon + 1)));
    }
    line_end = next;
  }
  std::size_t length = 0;
  if (!head_only && !response.header("Content-Length").empty()) {
    length = std::stoul(response.header("Content-Length"));
  }
  while (m_buffer.size() < end + 4 + length) {
    if (!fill(deadline)) {
      return std::nullopt;
    }
  }
  response.body = m_buffer.substr(end + 4, length);
  m_buffer.erase(0, end + 4 + length);
  return response;
}

bool RawConnection::receive_at_least(std::size_t bytes, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (m_received < bytes) {
    if (!fill(deadline)) {
      return false;
    }
  }
  return true;
}

bool RawConnection::receive_until_closed(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    switch (receive(deadline, &m_buffer)) {
    case Received::data:
      continue;
    case Received::closed:
      return true;
    case Received::timeout:
      return false;
    }
  }
}

bool RawConnection::ended_by_server() const {
  pollfd entry{m_fd, POLLRDHUP, 0};
  return ::poll(&entry, 1, 0) == 1 && (entry.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

bool RawConnection::closed_within(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    switch (receive(deadline, nullptr)) {
    case Received::data:
      continue; // dropped
    case Received::closed:
      return true;
    case Received::timeout:
      return false;
    }
  }
}

} // namespace bb
