// The indicator requests of SPEC sections 2-4 (D9 with D1, D4) as typed values: parsed from a query
// in the documented order and written back by to_target(), its exact inverse, so that whatever
// builds an indicator request (the CLI, chart overlays, the remote-mode cache) sends what the API
// parses.
#pragma once

#include "core/api/query_params.hpp"
#include "core/error.hpp"
#include "core/query/indicator_query.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ashare::api {

// A validated indicator request; `limit` is nullopt when omitted (then 10, D4).
struct IndicatorRequest {
  query::IndicatorQuery query;
  std::optional<std::int64_t> limit;
  bool expand_underlying = false;

  // Return the `limit` that applies: as asked, else 10 (D4).
  std::int64_t limit_or_default() const { return limit.value_or(10); }
  // Return the explicit lower bounds (`timestamp`, `timestamp.gte`, `timestamp.gt`) with their
  // parameter names, which the plan's history reach checks (D6).
  std::vector<std::pair<std::string, std::int64_t>> lower_bounds() const;
  // Return the parameters that say this request, in the documented order, defaults left out.
  QueryParams to_params() const;
  // Return the path and query that parse_indicator_request() parses back into this request.
  std::string to_target() const;

  friend bool operator==(const IndicatorRequest&, const IndicatorRequest&) = default;
};

// An indicator request in a client's own terms, as a user typed it (the command line's arguments):
// parse_indicator_form() judges it by the API's rules, in the API's order, with its messages.
struct IndicatorForm {
  query::Indicator indicator = query::Indicator::sma;
  std::string symbols; // comma-separated
  std::optional<std::int64_t> window{};
  std::optional<std::int64_t> fast{}, slow{}, signal{}; // MACD (D13); nullopt: the default
  std::optional<std::string> k{};                      // BBANDS, as text: D13 accepts no exponent
  std::optional<std::int64_t> n{}, m1{}, m2{};         // KDJ
  std::string series_type = "close";                   // ignored by ATR and KDJ
  std::optional<std::string> convention{};             // talib|tdx; nullopt: talib
  bool adjusted = true;
  std::string order = "desc";
  std::optional<std::int64_t> limit{};
  std::optional<std::string> at{};   // `timestamp`
  std::optional<std::string> from{}; // `timestamp.gte`
  std::optional<std::string> to{};   // `timestamp.lte`
  bool expand_underlying = false;
};

// Return the request of `form`, or the error the API would answer it with.
Result<IndicatorRequest> parse_indicator_form(const IndicatorForm& form);

// One integer parameter of an indicator's own (D9, D13): its wire name, range, default and where
// it goes in the query.
struct PeriodParam {
  query::Indicator indicator;
  std::string_view name;             // "window", "fast", "slow", "signal", "n", "m1", "m2"
  int min;                           // 1, or 2 where a period of 1 means nothing
  int max;                           // k_max_window (D4)
  int fallback;                      // the default (SPEC: EMA 50, RSI 14, SMA 50; D13 the others)
  int query::IndicatorQuery::*member;
  std::string_view help;             // what the command line's --help says of it
};

// Return the integer parameters `indicator` takes, in the order the API checks them: `window`
// (EMA, RSI, SMA, ATR: 1-5000; BBANDS: 2-5000), MACD's `fast`, `slow` (2-5000) and `signal`
// (1-5000), KDJ's `n`, `m1` and `m2` (1-5000).
std::span<const PeriodParam> period_params(query::Indicator indicator);

// BBANDS's `k` (D13), its one decimal parameter: the default, and the most it may be as written
// (greater than 0, no sign or exponent; parse_decimal_param).
inline constexpr double k_default_bbands_k = 2;
inline constexpr int k_max_bbands_k = 10;

// Parse the parameters of `indicator` itself from `params` into `query`, as the API checks them, in
// this order (D9, D13): those of period_params(), MACD's `fast` < `slow` once `slow` is read, then
// BBANDS's `k`; absent ones take their defaults. INVALID_PARAMETER naming the first bad one
// otherwise.
Status parse_indicator_params(query::Indicator indicator,
                              const QueryParams& params,
                              query::IndicatorQuery& query);

// Return whether `indicator` takes `series_type` (not ATR and KDJ, which read high, low and close).
bool reads_series_type(query::Indicator indicator);

// Return the path name of `indicator` ("ema", "rsi", "sma", "macd", "bbands", "atr", "kdj").
std::string_view indicator_name(query::Indicator indicator);

// Return the path of the endpoint of `indicator`, e.g. "/v1/indicators/sma".
std::string indicator_path(query::Indicator indicator);

// Parse `text` of time parameter `name`: a date YYYY-MM-DD (its t, D2) or Unix milliseconds.
Result<std::int64_t> parse_time_param(std::string_view name, std::string_view text);

// Validate `params` without touching the store. Checks, in order: `symbol`, `timespan`,
// `adjusted`, the indicator's own (`window`; MACD `fast`, `slow`, `signal`; BBANDS `window`, `k`;
// KDJ `n`, `m1`, `m2`), `series_type` (not ATR and KDJ), `convention`, `expand_underlying`,
// `order`, `limit`, `timestamp`,
// `timestamp.gte`, `timestamp.gt`, `timestamp.lte`, `timestamp.lt`.
Result<IndicatorRequest> parse_indicator_request(query::Indicator indicator,
                                                 const QueryParams& params);

} // namespace ashare::api
