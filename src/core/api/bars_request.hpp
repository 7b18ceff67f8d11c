// The bars request of SPEC "Daily bars" as a typed value: parsed from a path and query (D1-D4, in
// the documented order) and written back by to_target(), its exact inverse, so that whatever
// builds a bars request (the CLI, next_url, the remote-mode cache) sends what the API parses.
#pragma once

#include "core/api/query_params.hpp"
#include "core/auth/plan.hpp"
#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/query/bar_query.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace ashare::api {

// The path segments after /v1/ohlc/range/, as sent.
struct BarsPath {
  std::string multiplier;
  std::string timespan;
  std::string from;
  std::string to;
};

// A validated bars request; `limit` is nullopt when omitted (then the plan's maximum applies).
struct BarsRequest {
  query::BarQuery query;
  std::optional<std::int64_t> limit;
  QueryParams params; // as sent, for next_url (D8 keeps every other parameter)

  // Return the `limit` that applies under `plan`: as asked, else the plan's maximum (D4, D6).
  std::int64_t limit_under(auth::Plan plan) const;
  // Return the parameters that say this request, in the documented order, defaults left out but
  // for `sort`.
  QueryParams to_params() const;
  // Return the path and query that parse_bars_request() parses back into this request.
  std::string to_target() const;
};

// A bars request in a client's own terms, as a user typed it (the command line's arguments):
// parse_bars_form() judges it by the API's rules, in the API's order, with the API's messages.
struct BarsForm {
  std::string symbols; // comma-separated
  std::string from;
  std::string to;
  bool adjusted = true;
  std::string sort = "asc";
  std::optional<std::int64_t> limit;
  bool include_summary = false;
};

// Return the request of `form`, or the error the API would answer it with.
Result<BarsRequest> parse_bars_form(const BarsForm& form);

// Return whether `a` and `b` ask the same thing (the parameters as sent aside).
bool same_request(const BarsRequest& a, const BarsRequest& b);

// Validate `path` and `params` without touching the store. Checks, in order: the interval
// (UNSUPPORTED_INTERVAL), `from` and `to` (dates, then from <= to), `symbol`, `adjusted`, `sort`,
// `limit`, `include` (INVALID_SYMBOL or INVALID_PARAMETER).
Result<BarsRequest> parse_bars_request(const BarsPath& path, const QueryParams& params);

// Return the target of the daily bars of [`from`, `to`] with `params`: the one spelling of the
// bars path.
std::string bars_target(domain::Date from, domain::Date to, const QueryParams& params);

} // namespace ashare::api
