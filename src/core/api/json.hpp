// The JSON bodies of the API. This file and error.cpp are the only places that spell wire names
// (resultsCount, trade_date, ...); everything else speaks C++.
#pragma once

#include "core/error.hpp"
#include "core/query/bar_query.hpp"
#include "core/query/indicator_query.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ashare::api {

inline constexpr const char* k_schema_version = "2026-05-27"; // SPEC Versioning 3, D11

struct BarsResponse {
  std::string request_id;
  bool single = true; // single-symbol form (D1)
  bool adjusted = true;
  domain::Date from;
  domain::Date to;
  std::vector<query::SymbolBars> items;
  std::vector<std::optional<std::string>> next_urls; // one per item (D8)
  store::DatasetInfo dataset;
};

// Return the bars response body; `credits_charged` appears in meta when set (D7).
std::string bars_to_json(const BarsResponse& response, std::optional<std::int64_t> credits_charged);

struct IndicatorResponse {
  std::string request_id;
  bool single = true; // single-symbol form: `results` is an object
  bool expand_underlying = false;
  std::string series_type; // for `underlying`
  bool adjusted = true;
  std::vector<query::SymbolValues> items;
};

// Return the indicator response body (SPEC sections 2-4).
std::string indicators_to_json(const IndicatorResponse& response);

// Return the error envelope {"error": {"code", "message"}} of `error` (D10).
std::string error_to_json(const Error& error);

// Return the /healthz body (D5).
std::string health_to_json(const store::DatasetInfo& dataset);

} // namespace ashare::api
