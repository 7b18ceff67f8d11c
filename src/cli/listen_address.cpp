#include "cli/listen_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace ashare::cli {

std::optional<ListenAddress> parse_listen(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) {
    return std::nullopt;
  }
  const auto port = text.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  int number = 0;
  for (const char digit : port) {
    number = number * 10 + (digit - '0');
  }
  if (number > 65535) {
    return std::nullopt;
  }
  auto host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2); // [::1]:8080
  }
  return ListenAddress{std::string(host), number};
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost") {
    return true;
  }
  const std::string text(host);
  in_addr v4{};
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;
  }
  in6_addr v6{};
  if (::inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&v6)) {
      return true;
    }
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
  }
  return false;
}

std::optional<std::string> plaintext_warning(const ListenAddress& address, bool tls) {
  if (tls || is_loopback_host(address.host)) {
    return std::nullopt;
  }
  return "serving plain HTTP on " + address.host
         + ", which other machines can reach: API keys and data cross the network unencrypted; "
           "add --tls-cert and --tls-key, or put a TLS proxy in front";
}

} // namespace ashare::cli
