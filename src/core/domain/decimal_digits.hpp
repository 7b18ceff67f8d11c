// Decimal digits written fast, two at a time from a table: the server writes a compact history's
// window per request, a date and seven numbers a bar (issue 11, P5). Inline, as the bars' JSON
// writer calls them a few thousand times a request.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
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

// 10^0 to 10^19.
inline constexpr auto k_powers_of_ten = [] {
  std::array<std::uint64_t, 20> powers{};
  powers[0] = 1;
  for (std::size_t i = 1; i < powers.size(); ++i) {
    powers[i] = powers[i - 1] * 10;
  }
  return powers;
}();

// Return how many decimal digits `value` has (1 for 0).
inline int decimal_digits(std::uint64_t value) {
  // log10(2) is about 1233/4096: from the bit width, the digits or one fewer. `value | 1` counts
  // 0 as 1 and no other value differently (the powers of ten from 10 on are even).
  const auto odd = value | 1;
  const int guess = (std::bit_width(odd) * 1233) >> 12;
  return guess + (odd >= k_powers_of_ten[static_cast<std::size_t>(guess)] ? 1 : 0);
}

// Write `value` in decimal at `out`, two digits at a time from its last, and return the end.
inline char* write_unsigned(char* out, std::uint64_t value) {
  out += decimal_digits(value);
  char* at = out;
  for (; value >= 100; value /= 100) {
    at -= 2;
    write_digit_pair(at, static_cast<unsigned>(value % 100));
  }
  if (value >= 10) {
    write_digit_pair(at - 2, static_cast<unsigned>(value));
  } else {
    at[-1] = static_cast<char>('0' + value);
  }
  return out;
}

// Write `value` in decimal at `out`, which has room for 20 characters, and return the end.
inline char* write_integer(char* out, std::int64_t value) {
  *out = '-'; // kept only when negative
  out += value < 0 ? 1 : 0;
  // The magnitude of the most negative value, too, as unsigned arithmetic wraps.
  const auto magnitude = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  return write_unsigned(out, magnitude);
}

// The whole numbers of 1/10000s written from their digits: below 10^15 in magnitude, each
// divided by 10000 has at most 15 significant digits, so no other decimal of as few digits
// rounds to the same double (DBL_DIG): its own digits are the shortest round-trip ones, those
// std::to_chars writes of the double (D12).
inline constexpr std::int64_t k_ten_thousandths_written = 1'000'000'000'000'000;

// Write `whole`/10000 (|whole| < k_ten_thousandths_written) from its digits: "0" for 0.
inline char* write_whole_ten_thousandths(char* out, std::int64_t whole) {
  assert(whole > -k_ten_thousandths_written && whole < k_ten_thousandths_written);
  const auto magnitude = static_cast<std::uint64_t>(whole < 0 ? -whole : whole);
  *out = '-'; // kept only when negative: a change_pct's sign is as good as random
  out += whole < 0 ? 1 : 0;
  out = write_unsigned(out, magnitude / 10000); // "0" below 1
  const auto fraction = static_cast<unsigned>(magnitude % 10000);
  if (fraction == 0) {
    return out;
  }
  // All four digits, then the trailing zeros dropped, counted without a loop or a branch: their
  // number is as good as random, and mispredicted branches cost more than the arithmetic.
  out[0] = '.';
  write_digit_pair(out + 1, fraction / 100);
  write_digit_pair(out + 3, fraction % 100);
  const int zeros = static_cast<int>(fraction % 10 == 0) + static_cast<int>(fraction % 100 == 0)
                    + static_cast<int>(fraction % 1000 == 0);
  return out + 5 - zeros;
}

} // namespace ashare::domain
