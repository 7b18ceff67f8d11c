#include "http.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace bb {

std::string Reply::header(const std::string& name) const {
  const auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

nlohmann::json Reply::json() const {
  return nlohmann::json::parse(body);
}

Reply request_with_authorization(int port,
                                 const std::string& target,
                                 const std::optional<std::string>& authorization,
                                 const std::string& method) {
  httplib::Client client("127.0.0.1", port);
  client.set_url_encode(false); // send the target exactly as written
  client.set_connection_timeout(10, 0);
  client.set_read_timeout(60, 0); // generous: the server may run under sanitizers
  client.set_write_timeout(10, 0);
  httplib::Request req;
  req.method = method;
  req.path = target;
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

Reply request(int port,
              const std::string& target,
              const std::optional<std::string>& key,
              const std::string& method) {
  return request_with_authorization(
      port, target, key ? std::optional<std::string>("Bearer " + *key) : std::nullopt, method);
}

std::string raw_exchange(int port, const std::string& raw) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  timeval timeout{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
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
  std::string response;
  char buffer[16384];
  for (int reads = 0; reads < 100000; ++reads) { // bounded; ends at EOF or on the timeout
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
      break;
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
