// D20's members request, GET /v1/indices/{symbol}/members, as a typed value: parsed from its path
// and query and written back by to_target(), its exact inverse, so that the command line, a
// next_url and remote mode send what the API parses.
#pragma once

#include "core/api/query_params.hpp"
#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/error.hpp"
#include "core/store/market_record.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ashare::api {

// D20: spans a page of `history=true` holds.
inline constexpr std::int64_t k_members_page = 5000;

struct MembersRequest {
  domain::Symbol index;
  std::optional<domain::Date> date;          // nullopt: as_of (api::admit sets it), or every span
  bool history = false;                      // every span, paged
  std::optional<store::MemberSource> source; // nullopt: the source that answers (D20)
  std::int64_t offset = 0;                   // history: the first span of the page

  // Return the path and query that parse_members_request() parses back into this request.
  std::string to_target() const;
};

// A members request as a user typed it (`ashare members`): judged by the API's rules.
struct MembersForm {
  std::string index;
  std::optional<std::string> on;
  bool history = false;
  std::optional<std::string> source;
};

// Return the request of `form`, or the error the API would answer it with.
Result<MembersRequest> parse_members_form(const MembersForm& form);

// Validate `symbol` (the path segment, decoded) and `params` without touching the store, in
// order: the symbol (INVALID_SYMBOL), `date`, `history` (not both), `source`, `offset` (only with
// history) (INVALID_PARAMETER).
Result<MembersRequest> parse_members_request(std::string_view symbol, const QueryParams& params);

// Return the request of the page after `request`'s, whose spans end before `offset`.
MembersRequest next_request(const MembersRequest& request, std::int64_t offset);

// Return the next_url of that page.
std::string next_url(const MembersRequest& request, std::int64_t offset);

} // namespace ashare::api
