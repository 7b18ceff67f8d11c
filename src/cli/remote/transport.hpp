// Remote mode's way to the remote: GET a target over HTTP(S), the upstream of the core's
// remote::CachedRemote (cli/backend) and of `ashare sync`.
#pragma once

#include "cli/config.hpp"
#include "core/remote/upstream.hpp"

#include <memory>
#include <string>

namespace ashare::cli {

using remote::Reply;

// The remote could not be reached, or kept failing with 5xx after the retries (exit status 3).
using NetworkError = remote::UpstreamFailure;

// GET `target` (path and query, as the core's typed requests write it), throwing NetworkError,
// and a description.
class Transport : public remote::Upstream {
public:
  // Return a description for messages and `ashare info`: the base URL.
  virtual std::string describe() const = 0;
};

// Return a transport straight to the remote config.base_url (which must be set), without the
// cache; throws NetworkError only when used.
std::unique_ptr<Transport> open_remote_transport(const Config& config, const RemoteOptions& options);

} // namespace ashare::cli
