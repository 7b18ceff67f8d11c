// Where the query commands send their API requests: the local store in-process (local mode) or a
// server over HTTP(S) through the cache (remote mode: the core's remote::CachedRemote). All answer
// with the API's status and body, so every command prints the same output in both modes.
#pragma once

#include "cli/config.hpp"
#include "core/api/bars_request.hpp"
#include "core/api/json.hpp"
#include "core/remote/upstream.hpp"

#include <memory>
#include <optional>
#include <variant>
#include <string>

namespace ashare::cli {

using remote::Reply;

// The remote could not be reached, or kept failing with 5xx after the retries (exit status 3).
using NetworkError = remote::UpstreamFailure;

// GET `target` (path and query, as the core's typed requests write it), throwing NetworkError,
// and a description.
class Transport : public remote::Upstream {
public:
  // Return a description for `ashare info`: the store path or the base URL.
  virtual std::string describe() const = 0;

  // An answer to a bars request: the typed response (answered in process, with no body to write
  // and parse: issue 11, P2 and P6), an API error found in process, or a reply to read.
  using BarsAnswer = std::variant<api::BarsResponse, Error, Reply>;

  // Answer `request` as get(request.to_target()) would; local mode and the remote's cache answer
  // in process, typed.
  virtual BarsAnswer get_bars(const api::BarsRequest& request) {
    return get(request.to_target());
  }
};

// Return the transport `config` asks for: when config.base_url is set, the remote through the
// cache at config.cache_db (options.offline: the cache alone), else the local store.
std::unique_ptr<Transport> open_transport(const Config& config, const RemoteOptions& options);

// Return a transport straight to the remote config.base_url (which must be set), without the
// cache; throws NetworkError only when used.
std::unique_ptr<Transport> open_remote_transport(const Config& config, const RemoteOptions& options);

} // namespace ashare::cli
