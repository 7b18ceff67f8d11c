#include "core/api/members_endpoint.hpp"

#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"

#include <algorithm>

namespace ashare::api {

using domain::Date;

Status
apply_members_plan(MembersRequest& request, const Caller& caller, std::optional<Date> as_of) {
  if (!request.history && !request.date) {
    if (!as_of) {
      return make_error(ErrorCode::invalid_parameter,
                        "the store has no as_of to answer the members on: give date");
    }
    request.date = *as_of; // D20: the members on as_of
  }
  if (caller.plan_checked_by_remote || !request.date || !as_of) {
    return Ok{};
  }
  const auto earliest = auth::earliest_reachable(caller.plan, *as_of);
  if (earliest && *request.date < *earliest) {
    return make_error(ErrorCode::plan_limit, "date \"" + request.date->iso() + "\" is earlier than "
                                                 + earliest->iso() + ", the earliest date reachable"
                                                 + on_plan(caller.plan) + " (as_of " + as_of->iso()
                                                 + ")");
  }
  return Ok{};
}

std::variant<MembersResponse, Error, Unanswered>
answer_members(const MembersRequest& request, DataView& view, const std::string& request_id) {
  auto read = view.members(request);
  if (auto* unanswered = std::get_if<Unanswered>(&read)) {
    return *unanswered;
  }
  auto& found = std::get<IndexMembers>(read);
  const auto& index = request.index.str();
  if (!found.read.known) {
    return make_error(ErrorCode::not_found,
                      "no membership of \"" + index + "\" in the store"
                          + (request.source
                                 ? " from " + std::string(members::source_name(*request.source))
                                 : std::string()));
  }
  MembersResponse response{request_id, index, found.day, std::move(found.read.members), {}};
  if (request.history) {
    // D20: 5,000 spans a page, the next page by next_url.
    auto& spans = response.results;
    const auto first =
        std::min<std::size_t>(static_cast<std::size_t>(request.offset), spans.size());
    const auto end = std::min<std::size_t>(first + k_members_page, spans.size());
    if (end < spans.size()) {
      response.next_url = next_url(request, static_cast<std::int64_t>(end));
    }
    spans.erase(spans.begin() + static_cast<std::ptrdiff_t>(end), spans.end());
    spans.erase(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(first));
  }
  return response;
}

} // namespace ashare::api
