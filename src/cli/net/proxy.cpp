#include "cli/net/proxy.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cctype>
#include <charconv>
#include <netinet/in.h>

namespace ashare::cli::net {
namespace {

// Each setting and the variables it is read from, the lowercase one first.
struct ProxyVariable {
  std::string ProxyEnvironment::*setting;
  const char* lowercase;
  const char* uppercase;
};
constexpr std::array k_proxy_variables{
  ProxyVariable{&ProxyEnvironment::http_proxy, "http_proxy", "HTTP_PROXY"},
  ProxyVariable{&ProxyEnvironment::https_proxy, "https_proxy", "HTTPS_PROXY"},
  ProxyVariable{&ProxyEnvironment::no_proxy, "no_proxy", "NO_PROXY"},
};

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

std::string normalized_host(std::string_view host) {
  std::string out(host);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  while (!out.empty() && out.back() == '.') {
    out.pop_back();
  }
  return out;
}

// An IP address as bytes: 4 for IPv4, 16 for IPv6; empty when `text` is not one.
std::string address_bytes(std::string_view text) {
  const std::string copy(text);
  std::array<char, sizeof(in6_addr)> bytes{};
  if (inet_pton(AF_INET, copy.c_str(), bytes.data()) == 1) {
    return std::string(bytes.data(), sizeof(in_addr));
  }
  if (inet_pton(AF_INET6, copy.c_str(), bytes.data()) == 1) {
    return std::string(bytes.data(), sizeof(in6_addr));
  }
  return {};
}

// Whether address `host` lies in block `cidr` ("10.0.0.0/8"); false when either is malformed.
bool in_block(std::string_view host, std::string_view cidr) {
  const auto slash = cidr.find('/');
  const auto network = address_bytes(cidr.substr(0, slash));
  const auto address = address_bytes(host);
  unsigned bits = 0;
  const auto prefix = cidr.substr(slash + 1);
  const auto [end, ec] = std::from_chars(prefix.data(), prefix.data() + prefix.size(), bits);
  if (network.empty() || network.size() != address.size() || ec != std::errc()
      || end != prefix.data() + prefix.size() || bits > network.size() * 8) {
    return false;
  }
  for (unsigned bit = 0; bit < bits; ++bit) {
    const auto mask = static_cast<unsigned char>(0x80u >> (bit % 8));
    if ((static_cast<unsigned char>(network[bit / 8]) & mask)
        != (static_cast<unsigned char>(address[bit / 8]) & mask)) {
      return false;
    }
  }
  return true;
}

// `entry` of no_proxy without brackets, a port, a leading "*" and a trailing dot.
std::string entry_host(std::string_view entry) {
  if (entry.starts_with('[')) {
    return normalized_host(entry.substr(1, entry.find(']') - 1));
  }
  if (std::count(entry.begin(), entry.end(), ':') == 1) {
    entry = entry.substr(0, entry.find(':')); // a name or IPv4 address with a port
  }
  if (entry.starts_with("*.")) {
    entry.remove_prefix(1);
  }
  return normalized_host(entry);
}

bool entry_matches(const std::string& host, std::string_view entry) {
  if (entry == "*") {
    return true;
  }
  if (entry.find('/') != std::string_view::npos) {
    return in_block(host, entry);
  }
  const auto wanted = entry_host(entry);
  const auto host_address = address_bytes(host);
  if (!host_address.empty()) {
    return host_address == address_bytes(wanted);
  }
  const std::string_view domain = wanted.starts_with('.') ? std::string_view(wanted).substr(1)
                                                          : std::string_view(wanted);
  if (domain.empty()) {
    return false;
  }
  return host == domain
         || (host.size() > domain.size() && host.ends_with(domain)
             && host[host.size() - domain.size() - 1] == '.');
}

} // namespace

ProxyEnvironment read_proxy_environment(const Environment& environment) {
  ProxyEnvironment out;
  for (const auto& variable : k_proxy_variables) {
    auto value = environment(variable.lowercase);
    if (!value || value->empty()) {
      value = environment(variable.uppercase);
    }
    out.*variable.setting = value.value_or("");
  }
  return out;
}

bool is_proxy_bypassed(std::string_view host, std::string_view no_proxy) {
  const auto wanted = normalized_host(host);
  while (!no_proxy.empty()) {
    const auto comma = no_proxy.find(',');
    const auto entry = trimmed(no_proxy.substr(0, comma));
    if (!entry.empty() && entry_matches(wanted, entry)) {
      return true;
    }
    no_proxy = comma == std::string_view::npos ? std::string_view() : no_proxy.substr(comma + 1);
  }
  return false;
}

Result<std::optional<Url>> find_proxy(const Url& url, const ProxyEnvironment& proxies) {
  const bool https = url.scheme == Scheme::https;
  const auto setting = trimmed(https ? proxies.https_proxy : proxies.http_proxy);
  if (setting.empty() || is_proxy_bypassed(url.host, proxies.no_proxy)) {
    return std::optional<Url>();
  }
  const char* name = https ? "https_proxy" : "http_proxy";
  auto proxy = parse_url(setting);
  if (!proxy) {
    return Error{ErrorCode::invalid_input, std::string(name) + ": " + proxy.error().message};
  }
  if (proxy->scheme != Scheme::http) {
    return Error{ErrorCode::invalid_input,
                 std::string(name) + " \"" + std::string(setting)
                   + "\": only a proxy spoken to in plain HTTP (http://) is supported"};
  }
  return std::optional<Url>(std::move(*proxy));
}

} // namespace ashare::cli::net
