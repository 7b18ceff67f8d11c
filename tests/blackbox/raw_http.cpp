#include "raw_http.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

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

} // namespace

std::string RawResponse::header(const std::string& name) const {
  const auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

std::size_t RawResponse::header_count(const std::string& name) const {
  return headers.count(lower(name));
}

RawConnection::RawConnection(int port, std::optional<int> receive_buffer) {
  m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_fd < 0) {
    throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  if (receive_buffer) {
    ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &*receive_buffer, sizeof *receive_buffer);
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
}

RawConnection::~RawConnection() {
  ::close(m_fd);
}

bool RawConnection::send(std::string_view bytes) {
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
    pollfd entry{m_fd, POLLIN, 0};
    const int ready = ::poll(&entry, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      return Received::timeout;
    }
    char chunk[65536];
    const ssize_t got = ::recv(m_fd, chunk, sizeof chunk, 0);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      return Received::closed; // end of file or reset
    }
    m_received += static_cast<std::size_t>(got);
    if (into != nullptr) {
      into->append(chunk, static_cast<std::size_t>(got));
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
    throw std::runtime_error("not an HTTP response: " + status_line);
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
