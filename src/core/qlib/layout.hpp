// qlib's file-based data layout, as microsoft/qlib's scripts/dump_bin.py (DumpDataAll) writes
// it and docs/component/data.rst describes it:
//   calendars/day.txt          one trading date a line, YYYY-MM-DD, ascending
//   instruments/all.txt        "SH600519<TAB>first date<TAB>last date" a line, stocks only (D20:
//                              indices and funds have features, for a workflow's benchmark)
//   features/sh600519/F.day.bin  little-endian float32: the symbol's first date as an index into
//                              the calendar, then one value per calendar day from its first date
//                              to its last, NaN where it has no bar
// Prices are adjusted and the raw price is the adjusted one divided by `factor` (data.rst:
// "factor = adjusted_price / original_price", "$close / $factor to get the original close
// price"); volume is adjusted the other way (the collectors divide it by the factor), `change` is
// a fraction (close / previous close - 1) and the amount is CNY as traded.
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/symbol.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace ashare::qlib {

// The fields written for every symbol, in this order.
inline constexpr std::array<std::string_view, 8> k_fields{"open",   "high",   "low",    "close",
                                                          "volume", "amount", "change", "factor"};

// Return qlib's spelling of `symbol`: the exchange first, "SH600519".
std::string instrument_code(const domain::Symbol& symbol);

// Return the directory of `symbol`'s field files under the export root `root`.
std::filesystem::path features_dir(const std::filesystem::path& root, const domain::Symbol& symbol);

// Return the file of `field` in `features`, a features_dir().
std::filesystem::path field_file(const std::filesystem::path& features, std::string_view field);

// Return the values of k_fields for `bar` exported adjusted from the symbol's first bar (后复权):
// prices raw * factor / `first_factor`, volume raw / (factor / first_factor), amount as stored,
// change change_pct / 100, factor factor / first_factor; each rounded once, to float32.
std::array<float, k_fields.size()> field_values(const domain::Bar& bar, double first_factor);

// Append `value` to `out` as 4 little-endian bytes.
void append_float(std::string& out, float value);

} // namespace ashare::qlib
