// A remote's reply read as the typed answer of the request it answers: where remote mode parses
// the body of a request it forwards (the cache's own fetches are read in remote/cache_filler).
#pragma once

#include "core/api/answer.hpp"
#include "core/api/typed_request.hpp"
#include "core/error.hpp"
#include "core/remote/calls.hpp"

namespace ashare::remote {

// Return the error of `reply`, a remote's refusal (any status but 200): its error envelope
// (D10). Throws UnexpectedReply ("HTTP 502 with an unexpected body") when it has none.
Error error_of_reply(const http::Reply& reply);

// Return `reply`, the remote's reply to `request`, as its answer: a 200's typed response (for a
// health check, its as_of), else error_of_reply(). Throws UnexpectedReply when a 200's body is
// not a response of the API.
api::Answer answer_of_reply(const api::TypedRequest& request, const http::Reply& reply);

// Return the remote's own answer to `request`, sent through `remote` (GET its target). Throws
// Unreachable and UnexpectedReply.
api::Answer ask(http::Gateway& remote, const api::TypedRequest& request);

} // namespace ashare::remote
