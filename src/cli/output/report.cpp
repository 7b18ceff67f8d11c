#include "cli/output/report.hpp"

#include "core/domain/text.hpp"

#include <iostream>

namespace ashare::cli {

std::string error_line(std::string_view message) {
  return "ashare: error: " + std::string(message) + "\n";
}

int fail(std::string_view message, int status) {
  std::cerr << error_line(message);
  return status;
}

int fail_with(const Error& error) {
  // A remote's message is outside text: never raw control bytes on the user's terminal (D16).
  return fail(std::string(error_info(error.code).wire_name) + ": " + domain::printable(error.message),
              error_info(error.code).exit_status);
}

void note(std::string_view message) {
  std::cerr << "ashare: note: " << message << "\n";
}

void warn(std::string_view message) {
  std::cerr << "ashare: warning: " << message << "\n";
}

} // namespace ashare::cli
