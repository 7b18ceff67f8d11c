// D20's members answer and its JSON body, written for the members route and read back by the
// command line in remote mode. With json.cpp and json_read.cpp, a file that spells wire names.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/members/member_list.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::api {

// The answer of GET /v1/indices/{symbol}/members.
struct MembersResponse {
  std::string request_id;
  std::string index;                    // canonical
  std::optional<domain::Date> date;     // the open day answered; nullopt for history=true
  std::vector<members::Member> results; // by symbol (then first day)
  std::optional<std::string> next_url;  // history=true: the next page, when there is one
};

// Return the body: {"status":"OK","request_id","index","date","resultsCount","results":[{"symbol",
// "name","first_date","last_date","weight","source"}],"next_url"} (next_url only when set;
// last_date and weight null when absent).
std::string members_to_json(const MembersResponse& response);

// Return one ndjson line (without newline) for `member` of `index`: {"index", then the member's
// fields as the body writes them}.
std::string member_to_ndjson(const std::string& index, const members::Member& member);

// Parse a members body back into a MembersResponse: members_to_json() of it writes `body` again,
// byte for byte. INVALID_INPUT naming what is missing when `body` is not one.
Result<MembersResponse> members_from_json(std::string_view body);

} // namespace ashare::api
