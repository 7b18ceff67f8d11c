#include "cli/net/url.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cctype>
#include <charconv>
#include <netinet/in.h>
#include <optional>

namespace ashare::cli::net {
namespace {

constexpr std::string_view k_scheme_separator = "://";

Error invalid(std::string_view text, std::string_view why) {
  return Error{ErrorCode::invalid_input,
               "invalid URL \"" + std::string(text) + "\": " + std::string(why)};
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

unsigned short default_port(Scheme scheme) {
  return scheme == Scheme::https ? 443 : 80;
}

// A request line must never carry these (CR and LF would split it).
bool has_space_or_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](unsigned char c) { return c <= ' ' || c == 127; });
}

bool is_name_character(unsigned char c) {
  return std::isalnum(c) != 0 || c == '-' || c == '.' || c == '_';
}

bool is_ipv6_address(std::string_view host) {
  std::array<unsigned char, sizeof(in6_addr)> address{};
  return inet_pton(AF_INET6, std::string(host).c_str(), address.data()) == 1;
}

bool is_ipv4_address(std::string_view host) {
  std::array<unsigned char, sizeof(in_addr)> address{};
  return inet_pton(AF_INET, std::string(host).c_str(), address.data()) == 1;
}

// Split HOST[:PORT] (HOST maybe an IPv6 address in brackets) into `url`; return what is wrong.
std::optional<std::string> parse_host_port(std::string_view text, Url& url) {
  std::string_view host;
  std::string_view rest;
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string_view::npos) {
      return "an IPv6 address needs its closing ']'";
    }
    host = text.substr(1, close - 1);
    rest = text.substr(close + 1);
    if (!is_ipv6_address(host)) {
      return "\"" + std::string(host) + "\" is not an IPv6 address";
    }
  } else {
    const auto colon = text.find(':');
    host = text.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view() : text.substr(colon);
    if (host.empty()) {
      return "no host";
    }
    if (!std::all_of(host.begin(), host.end(), is_name_character)) {
      return "\"" + std::string(host) + "\" is not a host name or address";
    }
  }
  url.host = lowercase(host);
  url.port = default_port(url.scheme);
  if (rest.empty()) {
    return std::nullopt;
  }
  if (!rest.starts_with(':')) {
    return "expected ':' and a port after the host";
  }
  rest.remove_prefix(1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), port);
  if (rest.empty() || ec != std::errc() || end != rest.data() + rest.size() || port < 1
      || port > 65535) {
    return "the port must be a whole number from 1 to 65535";
  }
  url.port = static_cast<unsigned short>(port);
  return std::nullopt;
}

} // namespace

Result<Url> parse_url(std::string_view text) {
  if (text.empty()) {
    return invalid(text, "it is empty");
  }
  if (has_space_or_control(text)) {
    return invalid(text, "it holds a space or a control character");
  }
  Url url;
  std::string_view rest = text;
  if (const auto separator = rest.find(k_scheme_separator); separator != std::string_view::npos) {
    const auto scheme = lowercase(rest.substr(0, separator));
    if (scheme == "https") {
      url.scheme = Scheme::https;
    } else if (scheme != "http") {
      return invalid(text, "the scheme must be http or https");
    }
    rest.remove_prefix(separator + k_scheme_separator.size());
  }
  if (rest.find_first_of("?#") != std::string_view::npos) {
    return invalid(text, "a query or fragment cannot be part of it");
  }
  const auto slash = rest.find('/');
  auto authority_text = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    url.path = std::string(rest.substr(slash));
    while (!url.path.empty() && url.path.back() == '/') {
      url.path.pop_back();
    }
  }
  if (const auto at = authority_text.rfind('@'); at != std::string_view::npos) {
    url.user_info = std::string(authority_text.substr(0, at));
    authority_text.remove_prefix(at + 1);
  }
  if (const auto problem = parse_host_port(authority_text, url)) {
    return invalid(text, *problem);
  }
  return url;
}

std::string authority(const Url& url, bool always_port) {
  std::string out = url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  if (always_port || url.port != default_port(url.scheme)) {
    out += ":" + std::to_string(url.port);
  }
  return out;
}

std::string origin(const Url& url) {
  return (url.scheme == Scheme::https ? "https://" : "http://") + authority(url);
}

bool is_ip_address(std::string_view host) {
  return is_ipv4_address(host) || is_ipv6_address(host);
}

std::string percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned value = 0;
    if (text[i] == '%' && i + 2 < text.size()) {
      const auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
      if (ec == std::errc() && end == text.data() + i + 3) {
        out += static_cast<char>(value);
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

} // namespace ashare::cli::net
