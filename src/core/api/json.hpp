// The JSON bodies of the API: written by json.cpp, and read back by json_read.cpp for the clients
// of the API in this project (the command line and remote mode read the bodies they are sent).
// These two files and error.cpp are the only places that spell wire names (resultsCount,
// trade_date, ...); everything else speaks C++.
#pragma once

#include "core/api/bars_item.hpp"
#include "core/api/body.hpp"
#include "core/error.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/indicator_query.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::api {

inline constexpr const char* k_schema_version = "2026-05-27"; // SPEC Versioning 3, D11

// A bars answer: one item per symbol asked, in request order (D1).
struct BarsResponse {
  std::string request_id;
  bool single = true; // single-symbol form (D1)
  bool adjusted = true;
  domain::Date from;
  domain::Date to;
  std::vector<BarsItem> items;
  store::DatasetInfo dataset;
  // meta.credits_charged as read from a remote's body (D7); a server passes its own charge to
  // bars_to_json() instead.
  std::optional<std::int64_t> credits_charged;
};

// Return `bar` as the JSON object the bars endpoint writes for it.
std::string bar_to_json(const domain::Bar& bar);

// Return the error of item `i` of `response` (BarsItem::error), as for an IndicatorResponse.
std::optional<Error> item_error(const BarsResponse& response, std::size_t i);

// Return the bars response body; `credits_charged` appears in meta when set (D7).
std::string bars_to_json(const BarsResponse& response, std::optional<std::int64_t> credits_charged);

// As bars_to_json(), with the bars' JSON that the items hold written already spliced into the
// body by reference (Body::splice) rather than copied: what the server sends (issue 35).
Body bars_to_body(const BarsResponse& response, std::optional<std::int64_t> credits_charged);

struct IndicatorResponse {
  std::string request_id;
  query::Indicator indicator = query::Indicator::sma; // names the values' fields beyond `value`
  bool single = true; // single-symbol form: `results` is an object
  bool expand_underlying = false;
  std::string series_type; // for `underlying`; empty for ATR and KDJ, which read high, low, close
  bool adjusted = true;
  std::vector<query::SymbolValues> items;
  std::vector<std::optional<std::string>> next_urls; // one per item (D9)
};

// Return the error of item `i` of `response`: D1's unknown symbol when its symbol is not known.
std::optional<Error> item_error(const IndicatorResponse& response, std::size_t i);

// Return the indicator response body (SPEC sections 2-4).
std::string indicators_to_json(const IndicatorResponse& response);

// Parse a bars response body (of any SPEC server) back into a BarsResponse; INVALID_INPUT naming
// what is missing when `body` is not one.
Result<BarsResponse> bars_from_json(std::string_view body);

// Parse an indicator response body back into an IndicatorResponse; its `indicator` is told from
// the values' fields (signal: MACD, upper: BBANDS, d: KDJ), SMA when there are none.
Result<IndicatorResponse> indicators_from_json(std::string_view body);

// Parse an error envelope; nullopt when `body` is not one.
std::optional<Error> error_from_json(std::string_view body);

// Parse the /healthz body: its as_of (nullopt when null or absent).
Result<std::optional<domain::Date>> health_as_of_from_json(std::string_view body);

// Return one ndjson line (without newline) for `bar` of `symbol`: the bar object with "symbol".
std::string bar_to_ndjson(const std::string& symbol, const domain::Bar& bar);

// Return the ndjson summary line {"symbol": ..., "summary": {...}} of `symbol`.
std::string summary_to_ndjson(const std::string& symbol, const query::Summary& summary);

// Return one ndjson line for indicator `value` of `symbol` (symbol, trade_date, t, value: the
// bars' names; then the fields of `indicator` beyond `value`), with `underlying` when set.
std::string value_to_ndjson(const std::string& symbol,
                            query::Indicator indicator,
                            const query::IndicatorValue& value,
                            const IndicatorResponse* underlying);

// Return the error envelope {"error": {"code", "message"}} of `error` (D10).
std::string error_to_json(const Error& error);

// Return the /healthz body (D5); status "unavailable" unless `available` (D15: a draining server).
std::string health_to_json(const store::DatasetInfo& dataset, bool available = true);

} // namespace ashare::api
