// Tushare Pro's wire format (D18): a request is a POST of {"api_name","token","params","fields"}
// as JSON; a reply is {"request_id","code","msg","data":{"fields","items","has_more"}}, where a
// `code` other than 0 is a refusal in `msg`'s words. Cells keep the text the source sent, so that
// numbers reach the importers' exact decimal conversion (D12) untouched by a double.
#pragma once

#include "core/error.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::fetch::tushare {

// The rows of a reply: column names and, per row, each cell's text (a number as sent, a string's
// contents, nullopt for null).
struct Table {
  std::vector<std::string> fields;
  std::vector<std::vector<std::optional<std::string>>> items;
  bool has_more = false;

  // Return the index of column `name`, or nullopt.
  std::optional<std::size_t> column(std::string_view name) const;
};

// A reply's body: the envelope every answer of the API comes in.
struct Envelope {
  std::string request_id;
  std::int64_t code = 0;
  std::string msg;
  Table data;
};

// Return the JSON body of a call of `api_name` with `params` (an object), asking for `fields`
// (comma-separated; "" for the API's default columns).
std::string request_body(std::string_view api_name,
                         std::string_view token,
                         const nlohmann::json& params,
                         std::string_view fields);

// Parse a reply `body`. A body that is not the envelope (not JSON, no `code`, `data` without
// `fields` and `items` when `code` is 0, rows of another width) is an INVALID_INPUT error saying
// what is wrong.
Result<Envelope> parse_reply(std::string_view body);

// What a refusal (`code` other than 0) means for the fetch (D18).
enum class Refusal {
  per_minute,  // "每分…最多访问该接口N次" and the like: wait for the window, then retry the call
  daily_quota, // "每天最多访问该接口": the fetch ends (exit 4)
  token,       // the token is wrong or missing: the fetch ends (exit 4)
  permission,  // the token may not call this API (code -2002): fall back where one exists
  internal,    // the source's internal error: retried with backoff
  other,       // anything else: the fetch ends, quoting the message
};

struct ClassifiedRefusal {
  Refusal kind = Refusal::other;
  std::optional<int> per_minute_limit; // N of a per-minute answer, when it says
};

// Classify the refusal of `reply` (whose code is not 0) by its code and its words.
ClassifiedRefusal classify_refusal(const Envelope& reply);

} // namespace ashare::fetch::tushare
