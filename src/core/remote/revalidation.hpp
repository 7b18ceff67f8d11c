// Remote-mode requests that are asked again unchanged (a --refresh's anchor requests, forwarded
// indicator requests): their 200s are kept with the remote's ETag and sent back in If-None-Match
// (D17), so that an answer that has not changed moves no body and spends no credit.
#pragma once

#include "core/remote/calls.hpp"
#include "core/store/cache_store.hpp"

#include <string>

namespace ashare::remote {

// Return the remote `base_url`'s answer to GET `target` through `remote`, revalidating the 200
// that `cache` keeps for it, if any: a 304 gives that 200 back (status 200, its body and tag). A
// new 200 with an ETag replaces the kept one. Throws Unreachable.
http::Reply get_revalidated(http::Gateway& remote,
                            store::CacheStore& cache,
                            const std::string& base_url,
                            const std::string& target);

} // namespace ashare::remote
