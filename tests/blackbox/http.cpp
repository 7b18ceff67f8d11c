#include "http.hpp"

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

std::string Reply::header(const std::string& name) const {
  const auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

nlohmann::json Reply::json() const {
  return nlohmann::json::parse(body);
}

namespace {

Reply send_request(int port,
                   const std::string& target,
                   const std::optional<std::string>& authorization,
                   const httplib::Headers& headers,
                   const std::string& method) {
  httplib::Client client("127.0.0.1", port);
  client.set_url_encode(false); // send the target exactly as written
  client.set_connection_timeout(10, 0);
  client.set_read_timeout(60, 0); // generous: the server may run under sanitizers
  client.set_write_timeout(10, 0);
  httplib::Request req;
  req.method = method;
  req.path = target;
  req.headers = headers;
  if (authorization) {
    req.headers.emplace("Authorization", *authorization);
  }
  Reply reply;
  const auto result = client.send(req);
  if (!result) {
    reply.transport_error = httplib::to_string(result.error());
    return reply;
  }
  reply.status = result->status;
  reply.headers = result->headers;
  reply.body = result->body;
  return reply;
}

} // namespace

Reply request_with_authorization(int port,
                                 const std::string& target,
                                 const std::optional<std::string>& authorization,
                                 const std::string& method) {
  return send_request(port, target, authorization, {}, method);
}

Reply request_with_headers(int port,
                           const std::string& target,
                           const std::optional<std::string>& key,
                           const httplib::Headers& headers,
                           const std::string& method) {
  return send_request(port, target,
                      key ? std::optional<std::string>("Bearer " + *key) : std::nullopt, headers,
                      method);
}

Reply request(int port,
              const std::string& target,
              const std::optional<std::string>& key,
              const std::string& method) {
  return request_with_authorization(
      port, target, key ? std::optional<std::string>("Bearer " + *key) : std::nullopt, method);
}

namespace {

// The length of the first complete response at the start of `data`, or npos.
std::size_t complete_response_length(const std::string& data, bool head) {
  const std::size_t end = data.find("\r\n\r\n");
  if (end == std::string::npos) {
    return std::string::npos;
  }
  const std::size_t header_length = end + 4;
  if (head) {
    return header_length;
  }
  std::string headers = data.substr(0, end);
  for (char& c : headers) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const std::size_t at = headers.find("\r\ncontent-length:");
  if (at == std::string::npos) {
    return std::string::npos; // read until the server closes
  }
  const std::size_t length = std::stoul(headers.substr(at + 17));
  return data.size() >= header_length + length ? header_length + length : std::string::npos;
}

} // namespace

std::string raw_exchange(int port, const std::string& raw, std::chrono::milliseconds settle) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int saved = errno;
    close(fd);
    throw std::runtime_error(std::string("connect: ") + std::strerror(saved));
  }
  std::size_t sent = 0;
  while (sent < raw.size()) {
    const ssize_t n = send(fd, raw.data() + sent, raw.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      close(fd);
      throw std::runtime_error("send failed");
    }
    sent += static_cast<std::size_t>(n);
  }
  const bool head = raw.rfind("HEAD ", 0) == 0;
  const bool until_close = raw.find("\r\nConnection: close\r\n") != std::string::npos;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60); // generous: sanitizer builds
  bool complete = false;
  std::string response;
  char buffer[16384];
  while (true) {
    if (!until_close && !complete
        && complete_response_length(response, head) != std::string::npos) {
      complete = true;
      deadline = std::min(deadline, std::chrono::steady_clock::now() + settle);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      break;
    }
    pollfd entry{fd, POLLIN, 0};
    const int ready = poll(&entry, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      break;
    }
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
      break; // closed
    }
    response.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  return response;
}

std::string bars_target(const std::string& from, const std::string& to, const std::string& query) {
  return "/v1/ohlc/range/1/day/" + from + "/" + to + (query.empty() ? "" : "?" + query);
}

} // namespace bb
