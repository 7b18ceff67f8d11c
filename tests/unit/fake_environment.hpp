// A process environment for the command line's tests: the variables given, and nothing else.
#pragma once

#include "cli/config.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ashare::test {

// An environment (cli::Environment) that holds exactly `variables`.
inline cli::Environment environment_of(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](std::string_view name) -> std::optional<std::string> {
    const auto it = variables.find(std::string(name));
    if (it == variables.end()) {
      return std::nullopt;
    }
    return it->second;
  };
}

} // namespace ashare::test
