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
};

class Upstream {
public:
  virtual ~Upstream() = default;
  // Send GET `target` (e.g. "/healthz"). Throws UpstreamFailure.
  virtual Reply get(const std::string& target) = 0;
};

// The remote could not be reached, or kept failing with 5xx after the retries (exit status 3).
class UpstreamFailure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// --offline was given and the cache cannot answer without the network (exit status 1).
class OfflineMiss : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ashare::remote
