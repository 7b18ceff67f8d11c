#include "core/api/bars_request.hpp"

#include "core/api/params.hpp"
#include "core/domain/symbol.hpp"

namespace ashare::api {

using domain::Date;
using domain::SortOrder;

std::int64_t BarsRequest::limit_under(auth::Plan plan) const {
  return limit.value_or(auth::plan_limits(plan).max_limit);
}

QueryParams BarsRequest::to_params() const {
  QueryParams out;
  out.set("symbol", domain::join_symbols(query.symbols));
  if (!query.adjusted) {
    out.set("adjusted", "false");
  }
  // `sort` always: the command line has always sent it, and a next_url repeats it (D8).
  out.set("sort", query.sort == SortOrder::asc ? "asc" : "desc");
  if (limit) {
    out.set("limit", std::to_string(*limit));
  }
  if (query.include_summary) {
    out.set("include", "summary");
  }
  return out;
}

std::string BarsRequest::to_target() const {
  return bars_target(query.from, query.to, to_params());
}

Result<BarsRequest> parse_bars_form(const BarsForm& form) {
  QueryParams params;
  params.set("symbol", form.symbols);
  if (!form.adjusted) {
    params.set("adjusted", "false");
  }
  params.set("sort", form.sort);
  if (form.limit) {
    params.set("limit", std::to_string(*form.limit));
  }
  if (form.include_summary) {
    params.set("include", "summary");
  }
  auto request = parse_bars_request(BarsPath{"1", "day", form.from, form.to}, params);
  if (request) {
    request->params = request->to_params(); // what to_target() sends, for next_url
  }
  return request;
}

bool same_request(const BarsRequest& a, const BarsRequest& b) {
  return a.query == b.query && a.limit == b.limit;
}

std::string bars_target(Date from, Date to, const QueryParams& params) {
  return "/v1/ohlc/range/1/day/" + from.iso() + "/" + to.iso() + "?" + params.encode();
}

Result<BarsRequest> parse_bars_request(const BarsPath& path, const QueryParams& params) {
  if (path.multiplier != "1" || path.timespan != "day") {
    return make_error(ErrorCode::unsupported_interval, "unsupported interval \"" + path.multiplier
                                                           + "/" + path.timespan
                                                           + "\": only 1/day is supported");
  }
  BarsRequest request;
  auto from = domain::parse_iso_date(path.from, "from");
  if (!from) {
    return from.error();
  }
  auto to = domain::parse_iso_date(path.to, "to");
  if (!to) {
    return to.error();
  }
  if (*from > *to) {
    return make_error(ErrorCode::invalid_parameter, "invalid range: from \"" + path.from
                                                        + "\" is later than to \"" + path.to
                                                        + "\"");
  }
  request.query.from = *from;
  request.query.to = *to;

  auto symbols = domain::parse_symbol_list(params.find("symbol").value_or(""));
  if (!symbols) {
    return symbols.error();
  }
  request.query.symbols = std::move(*symbols);

  auto adjusted = parse_bool_param("adjusted", params.find("adjusted"), true);
  if (!adjusted) {
    return adjusted.error();
  }
  request.query.adjusted = *adjusted;

  auto sort = parse_enum_param("sort", params.find("sort"), {"asc", "desc"}, "asc");
  if (!sort) {
    return sort.error();
  }
  request.query.sort = *sort == "asc" ? SortOrder::asc : SortOrder::desc;

  auto limit = parse_int_param("limit", params.find("limit"), 1, k_max_limit);
  if (!limit) {
    return limit.error();
  }
  request.limit = *limit;

  const auto include = params.find("include");
  if (include) {
    auto value = parse_enum_param("include", include, {"summary"}, "");
    if (!value) {
      return value.error();
    }
    request.query.include_summary = true;
  }
  request.params = params;
  return request;
}

} // namespace ashare::api
