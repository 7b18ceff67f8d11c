// Where the query commands' requests are answered: the local store in-process (local mode), or a
// remote through the cache (remote mode, remote::CachedRemote). Both answer with api::answer,
// typed, so every command prints the same output in both modes.
#pragma once

#include "cli/config.hpp"
#include "core/api/answer.hpp"
#include "core/api/typed_request.hpp"

#include <memory>
#include <string>

namespace ashare::cli {

class Backend {
public:
  virtual ~Backend() = default;

  // Return the answer of `request`. Remote mode throws remote::Unreachable when the remote cannot
  // be reached, remote::OfflineMiss when --offline and the cache lacks what the answer reads, and
  // remote::UnexpectedReply for a reply no server of the API sends.
  virtual api::Answer answer(const api::TypedRequest& request) = 0;

  // Return a description for messages and `ashare info`: the store path or the base URL.
  virtual std::string describe() const = 0;
};

// Return the backend `config` asks for: when config.base_url is set, the remote through the cache
// at config.cache_db (options.offline: the cache alone), else the local store.
std::unique_ptr<Backend> open_backend(const Config& config, const RemoteOptions& options);

} // namespace ashare::cli
