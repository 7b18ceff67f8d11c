// Query parameter values as D4 defines them: booleans, enumerations (any case, echoed lower-case),
// `limit` and `window`. Every failure is INVALID_PARAMETER naming the parameter and the value.
#pragma once

#include "core/error.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace ashare::api {

// Parse `value` of boolean parameter `name`: true/false or 1/0, any case; `fallback` when absent.
Result<bool> parse_bool_param(std::string_view name,
                              std::optional<std::string_view> value,
                              bool fallback);

// Parse `value` of enumeration parameter `name` against `allowed` (lower-case), in any case;
// return the canonical lower-case value, or `fallback` when absent.
Result<std::string> parse_enum_param(std::string_view name,
                                     std::optional<std::string_view> value,
                                     std::initializer_list<std::string_view> allowed,
                                     std::string_view fallback);

// Parse `value` of integer parameter `name`: a decimal integer from `min` to `max`; nullopt when
// absent.
Result<std::optional<std::int64_t>> parse_int_param(std::string_view name,
                                                    std::optional<std::string_view> value,
                                                    std::int64_t min,
                                                    std::int64_t max);

// Parse `value` of decimal parameter `name` (D13's BBANDS `k`): digits with an optional fraction,
// `^[0-9]+(\.[0-9]+)?$`, no sign or exponent, greater than 0 and at most `max` as written (not as
// rounded); the nearest double, at least the smallest positive one; nullopt when absent.
Result<std::optional<double>> parse_decimal_param(std::string_view name,
                                                  std::optional<std::string_view> value,
                                                  int max);

inline constexpr std::int64_t k_max_limit = 5000;  // SPEC Limits 3
inline constexpr std::int64_t k_max_window = 5000; // D4

} // namespace ashare::api
