// Proxies from the environment, read as curl reads them: http_proxy (else HTTP_PROXY) for http
// URLs, to which a request goes whole, its target in absolute form; https_proxy (else
// HTTPS_PROXY) for https URLs, asked to CONNECT a tunnel in which TLS runs end to end; and
// no_proxy (else NO_PROXY), the hosts reached directly. The network module applies the rules;
// they are pure, so they are tested without a network.
#pragma once

#include "cli/config.hpp"
#include "cli/net/url.hpp"
#include "core/error.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ashare::cli::net {

// The proxy settings of an environment, as found ("" when unset or empty).
struct ProxyEnvironment {
  std::string http_proxy;
  std::string https_proxy;
  std::string no_proxy;
};

// Return the proxy settings of `environment`: each lowercase variable, else its uppercase one.
ProxyEnvironment read_proxy_environment(const Environment& environment);

// Return whether `no_proxy` lists `host` (a name, or an address without brackets). `no_proxy` is
// a comma-separated list of `*` (every host), host names that also match their subdomains
// ("example.com" and ".example.com" both match "example.com" and "a.example.com", never
// "badexample.com"), IP addresses and CIDR blocks ("10.0.0.0/8", "fd00::/8"); case, spaces, a
// trailing dot and a ":PORT" are ignored.
bool is_proxy_bypassed(std::string_view host, std::string_view no_proxy);

// Return the proxy that requests to `url` go through, or nullopt to connect directly. A proxy is
// written http://[USER:PASSWORD@]HOST[:PORT] (the scheme may be left out; PORT defaults to 80);
// anything else is INVALID_INPUT naming the variable.
Result<std::optional<Url>> find_proxy(const Url& url, const ProxyEnvironment& proxies);

} // namespace ashare::cli::net
