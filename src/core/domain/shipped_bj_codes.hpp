// D19: the Beijing exchange's code change shipped with ashare (data/bj_codes/, compiled in at
// build time): each old code (43xxxx, 83xxxx, 87xxxx) and the 920xxx code it became. Data, not a
// rule: 26 of the 248 do not keep their last three digits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ashare::domain {

// One row of the table, as 6-digit codes without their .BJ suffix.
struct BjCodeChange {
  std::int32_t old_code = 0;
  std::int32_t new_code = 0;
};

// Return the canonical symbol of the 6-digit Beijing `code` ("838163.BJ").
std::string bj_symbol(std::int32_t code);

// Return the shipped rows, ordered by old code.
std::span<const BjCodeChange> shipped_bj_code_changes();

// Return the 920xxx symbol that canonical `symbol` (an old Beijing code, e.g. "838163.BJ")
// became, or nullopt when it is none of the table's old codes.
std::optional<std::string> shipped_new_bj_symbol(std::string_view symbol);

// Return the old symbol that canonical `symbol` (a 920xxx.BJ code) was, or nullopt when it is
// none of the table's new codes.
std::optional<std::string> shipped_old_bj_symbol(std::string_view symbol);

} // namespace ashare::domain
