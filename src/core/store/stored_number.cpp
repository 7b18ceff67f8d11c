#include "core/store/stored_number.hpp"

#include <sqlite3.h>

#include <bit>
#include <cmath>

namespace ashare::store {

std::optional<std::int64_t> find_scaled(double value) {
  // Beyond 2^53 an integer no longer holds every neighbouring value: keep the REAL.
  constexpr double k_exact_limit = 9007199254740992.0;
  const double scaled = value * static_cast<double>(k_number_scale);
  if (!(std::fabs(scaled) < k_exact_limit)) {
    return std::nullopt; // also NaN and infinities
  }
  // Rounded half away from zero by hand, as llround would, without a libm call per number (issue
  // 11, P3); from 2^52 on every double is whole already. A wrong neighbour for a value between
  // two integers could only fail the exactness check below.
  constexpr double k_whole_from = 4503599627370496.0; // 2^52
  const auto whole = static_cast<std::int64_t>(
    std::fabs(scaled) >= k_whole_from ? scaled : (scaled < 0 ? scaled - 0.5 : scaled + 0.5));
  if (std::bit_cast<std::uint64_t>(from_scaled(whole)) != std::bit_cast<std::uint64_t>(value)) {
    return std::nullopt; // not a whole number of 1/10000, or -0.0
  }
  return whole;
}

void bind_number(SQLite::Statement& statement, int index, double value) {
  if (const auto scaled = find_scaled(value)) {
    statement.bind(index, *scaled);
  } else {
    statement.bind(index, value);
  }
}

double read_number(const SQLite::Column& column) {
  if (column.getType() == SQLITE_INTEGER) {
    return from_scaled(column.getInt64());
  }
  return column.getDouble();
}

std::string decoded_sql(const std::string& column) {
  // SQLite divides as C++ does (an IEEE double division), so this equals read_number.
  return "(CASE typeof(" + column + ") WHEN 'integer' THEN " + column + " / "
         + std::to_string(k_number_scale) + ".0 ELSE " + column + " END)";
}

} // namespace ashare::store
