// URLs as the network clients take them: a base URL (--base-url, a data source's endpoint) or a
// proxy from the environment (cli/net/proxy.hpp), split into what a connection and a request
// line need. Only http and https.
#pragma once

#include "core/error.hpp"

#include <string>
#include <string_view>

namespace ashare::cli::net {

enum class Scheme { http, https };

struct Url {
  Scheme scheme = Scheme::http;
  std::string user_info; // "user:password" before '@', percent-encoded as written; "" when none
  std::string host;      // a lowercase name, an IPv4 address, or an IPv6 address without brackets
  unsigned short port = 80; // the scheme's default (80, 443) when the URL names none
  std::string path;         // from the first '/' after the host, trailing '/'s removed; "" for none
};

// Parse `text` as [SCHEME://][USERINFO@]HOST[:PORT][/PATH]: SCHEME http (the default, as a bare
// "127.0.0.1:8080" always meant) or https, in any case; an IPv6 HOST in brackets; PORT 1 to
// 65535. A query, a fragment, spaces and control characters are refused (a base URL is a prefix
// of request targets). An error is INVALID_INPUT quoting `text`.
Result<Url> parse_url(std::string_view text);

// Return `url`'s host and port as a Host header or a CONNECT request writes them: brackets around
// an IPv6 address, and ":PORT" unless it is the scheme's default or `always_port` is set.
std::string authority(const Url& url, bool always_port = false);

// Return "SCHEME://AUTHORITY": `url` without its user info and path.
std::string origin(const Url& url);

// Return whether `host` is an IPv4 or IPv6 address (without brackets) rather than a name.
bool is_ip_address(std::string_view host);

// Return `text` with its %XX escapes decoded (a malformed escape is kept as written).
std::string percent_decoded(std::string_view text);

} // namespace ashare::cli::net
