// Weak entity tags and If-None-Match (D17): a data response's tag changes exactly when what it
// says would change (the store's generation, the canonical request, the caller's plan), never
// with request_id, so that a client revalidating unchanged data gets a 304 and pays nothing.
#pragma once

#include "core/api/caller.hpp"
#include "core/store/bar_store.hpp"

#include <string>
#include <string_view>

namespace ashare::api {

// Return the weak ETag (`W/"..."`) of a bars or indicator answer to `canonical_target` (the
// request as to_target() writes it) from the store state `dataset` (its id and generation), for
// `caller`: its plan clips what is served, and a metered caller's body names the credits charged
// (D7).
std::string data_etag(const store::DatasetInfo& dataset,
                      std::string_view canonical_target,
                      const Caller& caller);

// Return the weak ETag of `body`, for a response that is the same bytes whenever it is the same
// (/healthz, /v1/openapi.json).
std::string body_etag(std::string_view body);

// Return whether `if_none_match` (the header's value, several fields joined by ",") matches
// `etag` by the weak comparison of RFC 9110 13.1.2: "*", or a listed tag with the same opaque
// value, weak or not. A malformed list matches nothing.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

} // namespace ashare::api
