// Remote mode's way to the remote: the network module's HTTP(S) (cli/net/http_gateway) with the
// API key, retried as remote mode retries (remote::retry_policy), the gateway of the core's
// remote::CachedRemote (cli/backend), of `ashare sync` and of `ashare info`.
#pragma once

#include "cli/config.hpp"
#include "core/http/gateway.hpp"

#include <memory>

namespace ashare::cli {

// Return a gateway straight to the remote config.base_url (which must be set), without the cache,
// retrying as `options` say. In `ashare`, the first call that reaches the network moves the
// command to `ashare-net` (cli/net/hand_over.hpp): an answer from the cache never pays for it (P6).
std::unique_ptr<http::Gateway> open_remote_gateway(const Config& config, const RemoteOptions& options);

} // namespace ashare::cli
