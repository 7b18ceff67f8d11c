// What remote mode asks of the remote server: GET a target (path and query) and get its status
// and body. The command line implements it over HTTP(S) (cli/remote); unit tests fake it, so every
// rule of remote mode is tested without a network.
#pragma once

#include <stdexcept>
#include <string>

namespace ashare::remote {

struct Reply {
  int status = 0;
  std::string body;
  std::string etag = {}; // the ETag the remote sent with a 200 or 304, if any (D17)
};

class Upstream {
public:
  virtual ~Upstream() = default;
  // Send GET `target` (e.g. "/healthz"). Throws UpstreamFailure.
  virtual Reply get(const std::string& target) = 0;

  // Send GET `target` with `If-None-Match: etag` (D17): a 304 with no body while the answer is
  // the one `etag` names. An upstream that cannot send the header answers as get() does.
  virtual Reply get_if_none_match(const std::string& target, const std::string& etag) {
    (void)etag;
    return get(target);
  }
};

// The remote could not be reached, or kept failing with 5xx after the retries (exit status 3).
class UpstreamFailure : public std::runtime_error {
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

} // namespace ashare::remote
