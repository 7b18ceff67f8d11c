// Decimal digits written two at a time from a table, as fast formatters do: the server writes
// a compact history's window per request, a date and seven numbers a bar (issue 11, P5).
#pragma once

#include <array>
#include <cstring>

namespace ashare::domain {

// "00" to "99", each pair at twice its value.
inline constexpr auto k_digit_pairs = [] {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[static_cast<std::size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    pairs[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}();

// Write `value` (0 to 99) at `out` as two digits.
inline void write_digit_pair(char* out, unsigned value) {
  std::memcpy(out, &k_digit_pairs[2 * value], 2);
}

} // namespace ashare::domain
