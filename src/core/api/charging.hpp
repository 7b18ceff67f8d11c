// What a request costs and how it is charged (D7), and the 304s that come in place of a charge
// (D17): the last step of a data route's answer in api/dispatch. A metered key's answer waits on
// its charge, made at once where waiting is allowed, else handed back as ChargeNeeded for
// apply_charges() to make on a worker, several together; an unmetered key's is answered at once.
// Every response to a metered key after authentication carries X-Credits-Remaining, read from
// the key store, never from memory.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/request.hpp"
#include "core/api/services.hpp"
#include "core/api/store_view.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace ashare::api {

// Renders a data answer's body; `credits_charged` is set when credits were charged (D7
// meta.credits_charged).
using Render = std::function<Body(std::optional<std::int64_t> credits_charged)>;

// D7 (402): charge `cost` to `caller` and answer with `answer` (its body, or its error), a 200
// tagged `etag` when one is given (D17). An unmetered caller is answered at once. A metered one
// waits on the key store of `services`: charged now when `waiting` allows, else ChargeNeeded. Its
// balance is read even when nothing is charged (an error, or a cost of 0).
Step charge_and_answer(const Caller& caller,
                       Result<Render> answer,
                       std::int64_t cost,
                       std::string etag,
                       Services& services,
                       Waiting waiting);

// D17: the 304 of `etag`, in place of the charge, which it never makes (so a key with no credits
// left still revalidates): for a metered `caller` with its balance (read now or ChargeNeeded, as
// charge_and_answer()), refused as the charge would refuse a key revoked meanwhile.
Step answer_not_modified(const Caller& caller, std::string etag, Services& services, Waiting waiting);

// Return whether `request` names `etag` in its If-None-Match (D17).
bool is_not_modified(const Request& request, const std::string& etag);

// D17: tag a public route's 200 by its body (unless it carries its own ETag), and answer 304 when
// `request` names that tag.
Response tag_public(Response response, const Request& request);

// Return the 500 of an unexpected failure after authentication (D10), logging `detail`, with the
// balance of a metered `caller` when the key store can still be read (D7).
Response internal_error(const Caller& caller, const std::string& detail, Services& services);

// Set X-Credits-Remaining to `balance` when there is one (D7).
void set_credits_header(Response& response, const std::optional<std::int64_t>& balance);

} // namespace ashare::api
