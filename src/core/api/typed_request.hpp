// A request of the API as a typed value, whichever door it comes in by: parsed from a path and
// query by the server (api/dispatch: parse_typed_request), built from a user's arguments by the
// command line (parse_bars_form, parse_indicator_form), or the next page of an answer
// (next_request). Each kind writes its target back (to_target) for the remote of remote mode.
#pragma once

#include "core/api/bars_request.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/members_request.hpp"
#include "core/domain/date.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ashare::api {

// The health check, which takes no parameters: what clients ask for the data's as_of (D8) and a
// load balancer for readiness (D15).
struct HealthRequest {};
inline constexpr std::string_view k_health_path = "/healthz";

// A request of the API as a typed value.
using TypedRequest = std::variant<HealthRequest, BarsRequest, IndicatorRequest, MembersRequest>;

// Return the path and query of `request`, as a server parses it back into `request`.
std::string to_target(const TypedRequest& request);

// Return the symbols `request` names, in order (none for a health check, nor for a members
// request, whose index is no symbol of bars: D20).
const std::vector<domain::Symbol>& symbols_of(const TypedRequest& request);

// Return the request of the next page of item `symbol` (one of the request's) when the last bar
// of this page is dated `last` (D8): what parsing its next_url gives.
BarsRequest next_request(const BarsRequest& request, const std::string& symbol, domain::Date last);

// Return the request of the next page of item `symbol` (one of the request's) when the last value
// of this page is at `last_t` (D9): what parsing its next_url gives.
IndicatorRequest
next_request(const IndicatorRequest& request, const std::string& symbol, std::int64_t last_t);

// Return the next_url of item `symbol` of `request` (D8): next_request()'s target, with the
// parameters as sent.
std::string next_url(const BarsRequest& request, const std::string& symbol, domain::Date last);

// Return the next_url of item `symbol` of `request` (D9): next_request()'s target.
std::string
next_url(const IndicatorRequest& request, const std::string& symbol, std::int64_t last_t);

} // namespace ashare::api
