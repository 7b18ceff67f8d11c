// How the command line reports: its exit statuses, named once, and the one way an error or a note
// reaches stderr ("ashare: error: ...", "ashare: note: ..."). An API error keeps its wire code and
// takes its exit status from the error table (core/error.cpp).
#pragma once

#include "core/error.hpp"

#include <string>
#include <string_view>

namespace ashare::cli {

// Exit statuses (documented in --help, the man page and docs/api.md). An API error's comes from the
// error table: 1, or 4 for 401, 402 and 403.
inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_error = 1;   // data or API error
inline constexpr int k_exit_usage = 2;   // command-line usage error
inline constexpr int k_exit_network = 3; // the remote could not be reached

// Return the line that reports `message`: "ashare: error: MESSAGE\n".
std::string error_line(std::string_view message);

// Print `message` as an error on stderr and return `status`.
int fail(std::string_view message, int status = k_exit_error);

// Print API error `error` as the API words it ("ashare: error: CODE: message") and return its
// exit status from the error table.
int fail_with(const Error& error);

// Print `message` as a note on stderr ("ashare: note: MESSAGE").
void note(std::string_view message);

// Print `message` as a warning on stderr ("ashare: warning: MESSAGE").
void warn(std::string_view message);

} // namespace ashare::cli
