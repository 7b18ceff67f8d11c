// GET /v1/indices/{symbol}/members (D20) as api/answer reads it: the plan's check and the default
// day, then the answer from a DataView: the members on a day, or every span a page at a time.
#pragma once

#include "core/api/caller.hpp"
#include "core/api/data_view.hpp"
#include "core/api/members_json.hpp"
#include "core/api/members_request.hpp"
#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <optional>
#include <string>
#include <variant>

namespace ashare::api {

// D20: without `date` (and without history=true) the day is `as_of` (INVALID_PARAMETER when the
// store has none); a date earlier than the plan of `caller` reaches from `as_of` is PLAN_LIMIT
// (D6), unless the caller's plan is the remote's to check.
Status apply_members_plan(MembersRequest& request,
                          const Caller& caller,
                          std::optional<domain::Date> as_of);

// Return the answer to `request` (its plan applied) from `view`: the members of its index on the
// day, or a page of every span with the next page's next_url; NOT_FOUND for an index with no
// spans (of the source asked); or why `view` cannot give them here.
std::variant<MembersResponse, Error, Unanswered>
answer_members(const MembersRequest& request, DataView& view, const std::string& request_id);

} // namespace ashare::api
