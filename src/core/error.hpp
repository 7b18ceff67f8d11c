// Errors as values: the error codes a user can cause, the one table that maps them to API codes,
// HTTP statuses and CLI exit statuses, and Result<T>, which holds either a T or an Error.
#pragma once

#include <cassert>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ashare {

enum class ErrorCode {
  invalid_symbol,
  invalid_parameter,
  unsupported_interval,
  unauthorized,
  insufficient_credits,
  plan_limit,
  not_found,
  method_not_allowed,
  internal,
  invalid_input, // a file or command-line value the CLI rejects (import rows, key ids, ...)
  rate_limited,  // D14: a key beyond its plan's request rate
  service_unavailable, // D15: the store (a database server) cannot be reached; retry later
};

struct Error {
  ErrorCode code;
  std::string message; // starts lowercase, names the parameter and quotes the value
};

// One row of the error table.
struct ErrorInfo {
  ErrorCode code;
  std::string_view wire_name; // e.g. "INVALID_SYMBOL"
  int http_status;            // e.g. 400
  int exit_status;            // CLI exit status (issue 4: 1 data/API error, 4 auth/credits/plan)
};

// Return the table row of `code`. Every enumerator has exactly one row.
const ErrorInfo& error_info(ErrorCode code);

// Return the whole table, in enumerator order (for tests and docs).
std::span<const ErrorInfo> error_table();

// A T or an Error. Anticipated failures (bad input, unknown symbol, plan limit) travel as values.
template <class T> class [[nodiscard]] Result {
public:
  Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return m_data.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(m_data);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(m_data);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(m_data));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<1>(m_data);
  }

private:
  std::variant<T, Error> m_data;
};

// Result<void>: success or an Error.
struct Ok {};
using Status = Result<Ok>;

// Build an Error; shorthand used throughout the core.
inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

} // namespace ashare
