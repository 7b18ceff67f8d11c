#include "core/api/members_request.hpp"

#include "core/api/params.hpp"
#include "core/members/member_list.hpp"

#include <limits>

namespace ashare::api {

std::string MembersRequest::to_target() const {
  QueryParams params;
  if (date) {
    params.set("date", date->iso());
  }
  if (history) {
    params.set("history", "true");
  }
  if (source) {
    params.set("source", members::source_name(*source));
  }
  if (offset > 0) {
    params.set("offset", std::to_string(offset));
  }
  const auto query = params.encode();
  return "/v1/indices/" + index.str() + "/members" + (query.empty() ? "" : "?" + query);
}

Result<MembersRequest> parse_members_form(const MembersForm& form) {
  QueryParams params;
  if (form.on) {
    params.set("date", *form.on);
  }
  if (form.history) {
    params.set("history", "true");
  }
  if (form.source) {
    params.set("source", *form.source);
  }
  return parse_members_request(form.index, params);
}

Result<MembersRequest> parse_members_request(std::string_view symbol, const QueryParams& params) {
  auto index = domain::parse_symbol(symbol);
  if (!index) {
    return index.error();
  }
  MembersRequest request{std::move(*index), std::nullopt, false, std::nullopt, 0};
  if (const auto date = params.find("date")) {
    auto parsed = domain::parse_iso_date(*date, "date");
    if (!parsed) {
      return parsed.error();
    }
    request.date = *parsed;
  }
  auto history = parse_bool_param("history", params.find("history"), false);
  if (!history) {
    return history.error();
  }
  request.history = *history;
  if (request.history && request.date) {
    return make_error(ErrorCode::invalid_parameter,
                      "date and history=true: ask for the members on a day or for every span");
  }
  auto source = parse_enum_param("source", params.find("source"), {"tushare", "import"}, "");
  if (!source) {
    return source.error();
  }
  request.source = members::parse_source(*source);
  auto offset =
      parse_int_param("offset", params.find("offset"), 0, std::numeric_limits<std::int32_t>::max());
  if (!offset) {
    return offset.error();
  }
  if (*offset && !request.history) {
    return make_error(ErrorCode::invalid_parameter, "offset pages history=true alone");
  }
  request.offset = offset->value_or(0);
  return request;
}

MembersRequest next_request(const MembersRequest& request, std::int64_t offset) {
  MembersRequest next = request;
  next.offset = offset;
  return next;
}

std::string next_url(const MembersRequest& request, std::int64_t offset) {
  return next_request(request, offset).to_target();
}

} // namespace ashare::api
