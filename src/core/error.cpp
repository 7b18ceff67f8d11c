#include "core/error.hpp"

#include <array>

namespace ashare {
namespace {

// The only place that names error codes on the wire. Exit statuses follow the CLI contract:
// 1 data or API error, 4 authentication, credits, plan or request rate refused.
constexpr std::array k_error_table{
  ErrorInfo{ErrorCode::invalid_symbol, "INVALID_SYMBOL", 400, 1},
  ErrorInfo{ErrorCode::invalid_parameter, "INVALID_PARAMETER", 400, 1},
  ErrorInfo{ErrorCode::unsupported_interval, "UNSUPPORTED_INTERVAL", 400, 1},
  ErrorInfo{ErrorCode::unauthorized, "UNAUTHORIZED", 401, 4},
  ErrorInfo{ErrorCode::insufficient_credits, "INSUFFICIENT_CREDITS", 402, 4},
  ErrorInfo{ErrorCode::plan_limit, "PLAN_LIMIT", 403, 4},
  ErrorInfo{ErrorCode::not_found, "NOT_FOUND", 404, 1},
  ErrorInfo{ErrorCode::method_not_allowed, "METHOD_NOT_ALLOWED", 405, 1},
  ErrorInfo{ErrorCode::internal, "INTERNAL_ERROR", 500, 1},
  ErrorInfo{ErrorCode::invalid_input, "INVALID_INPUT", 400, 1},
  ErrorInfo{ErrorCode::rate_limited, "RATE_LIMITED", 429, 4},
  // Exit 3, as a network error: the store is elsewhere and may come back (D15).
  ErrorInfo{ErrorCode::service_unavailable, "SERVICE_UNAVAILABLE", 503, 3},
};

} // namespace

const ErrorInfo& error_info(ErrorCode code) {
  const auto index = static_cast<std::size_t>(code);
  assert(index < k_error_table.size() && k_error_table[index].code == code);
  return k_error_table[index];
}

std::span<const ErrorInfo> error_table() {
  return k_error_table;
}

} // namespace ashare
