// The core's one way to the outside world over HTTP: a call (a GET or a POST of a target, with
// headers and a body) sent through a gateway, which gives back the reply or why none came. The
// command line implements the gateway over the network module (cli/net/http_gateway); the tests fake
// it, so that no rule needs a network. Remote mode asks the remote server through it (remote/),
// Tushare's client posts through it and TDX's provider asks SZSE's calendar through it (fetch/).
// retrying_gateway.hpp wraps a gateway in the retries with a doubling backoff that remote mode and
// Tushare's client share.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace ashare::http {

enum class Method { get, post };

struct Header {
  std::string name;
  std::string value;
};

// One request: `target` is the path and query after the gateway's base URL ("/v1/...",
// "?month=2024-10", or "/" for the base itself).
struct Call {
  Method method = Method::get;
  std::string target = "/";
  std::vector<Header> headers; // e.g. If-None-Match (D17); the gateway adds its own
  std::string body;            // sent when not empty (a POST's JSON)
};

// What came back: the status, the body (inflated when it came compressed; empty for a 304) and
// the ETag header, if any (D17).
struct Reply {
  int status = 0;
  std::string body;
  std::string etag = {};
};

// Why a call has no reply, in words that name where it went: the network failed (refused, timed
// out, dropped), or a retrying gateway gave up. `retryable` is false when trying again cannot
// help (a malformed URL or proxy setting, an unreadable CA file).
struct Failure {
  std::string message;
  bool retryable = true;
};

using Outcome = std::variant<Reply, Failure>;

class Gateway {
public:
  virtual ~Gateway() = default;
  // Send `call` and return the reply, or why there is none. Used by one thread at a time.
  virtual Outcome send(const Call& call) = 0;
};

} // namespace ashare::http
