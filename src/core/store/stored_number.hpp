// How the data store keeps prices, turnover, change_pct and factors compactly and exactly (issue
// 11, D12): a value that is a whole number of 1/10000 units is stored as that INTEGER (SQLite
// writes small integers in 1 to 6 bytes instead of a REAL's 8), and any other value as the REAL
// itself. Both read back bit for bit. The columns have no declared type, so SQLite never converts
// one storage class into the other.
#pragma once

#include <SQLiteCpp/Column.h>
#include <SQLiteCpp/Statement.h>

#include <cstdint>
#include <optional>
#include <string>

namespace ashare::store {

// The scale of a stored INTEGER: the value times k_number_scale.
inline constexpr std::int64_t k_number_scale = 10'000;

// Return `value` times k_number_scale as an integer when that integer divided by k_number_scale
// gives back exactly `value` (every bit, -0.0 excluded), else nullopt.
std::optional<std::int64_t> find_scaled(double value);

// Return the value of stored integer `scaled`.
inline double from_scaled(std::int64_t scaled) {
  return static_cast<double>(scaled) / static_cast<double>(k_number_scale);
}

// Bind `value` to parameter `index` of `statement` in its stored form.
void bind_number(SQLite::Statement& statement, int index, double value);

// Return the value of `column`, stored by bind_number.
double read_number(const SQLite::Column& column);

// Return an SQL expression reading the stored number in `column` as a REAL (for SQL that
// compares or copies values, e.g. a symbol's latest factor).
std::string decoded_sql(const std::string& column);

} // namespace ashare::store
