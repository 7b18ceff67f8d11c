// The network module's HTTP(S) client (cli/net/module.hpp: http_open, http_exchange,
// http_close): Boost.Beast over one kept-alive connection per session, direct or through the
// environment's proxy (absolute-form requests for http, a CONNECT tunnel for https), TLS with SNI
// and host-name verification, a deadline on each step, and gzip bodies inflated. One thread at a
// time; the operations run on the session's own io_context, so a call returns when it is done.
#pragma once

#include "cli/net/module.hpp"

#include <memory>
#include <variant>

namespace ashare::cli::net {

// Return a session for `settings` (nothing connected yet), or the Failure that makes it useless
// (a malformed base URL or proxy, an unreadable CA file; not retryable).
std::variant<HttpSession*, Failure> open_http_session(const HttpSettings& settings);

// Send `request` on `session` and read the response, as Module::http_exchange says.
HttpOutcome exchange(HttpSession& session, const HttpRequest& request);

void close_http_session(HttpSession* session);

} // namespace ashare::cli::net
