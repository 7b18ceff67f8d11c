// What remote mode asks of the remote server, and how: a GET of a target of the v1 API through the
// core's HTTP gateway (http/gateway.hpp), conditional when a kept answer is revalidated (D17); the
// retries it makes (retry_policy, for an http::RetryingGateway); and the failures that end a
// command in remote mode. The command line sends the calls over HTTP(S) (cli/remote); unit tests
// fake the gateway, so every rule of remote mode is tested without a network.
#pragma once

#include "core/http/retrying_gateway.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace ashare::remote {

// The remote could not be reached, or kept failing with 5xx after the retries (exit status 3).
class Unreachable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The remote answered what no server of the API sends: a body that is not the response asked
// for, or a refusal without an error envelope (exit status 1).
class UnexpectedReply : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// --offline was given and the cache cannot answer without the network (exit status 1).
class OfflineMiss : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Return the remote's reply to GET `target` (e.g. "/healthz") sent through `remote`, with
// `If-None-Match: etag` when `etag` is not empty (D17: then a 304 with no body while the answer is
// the one `etag` names). Throws Unreachable, in the words of the gateway's failure.
http::Reply get(http::Gateway& remote, const std::string& target, const std::string& etag = {});

// Return remote mode's retries of the remote at `base_url`: a network failure that may pass and a
// 5xx are tried `retries` more times, after `backoff`, doubled each time. Given up, they read
// "cannot reach BASE: why" and "BASE kept failing after N attempts: HTTP 503 CODE: message".
http::RetryPolicy retry_policy(const std::string& base_url,
                               int retries,
                               std::chrono::milliseconds backoff);

} // namespace ashare::remote
