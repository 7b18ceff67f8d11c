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

// The text of each fraction 0/10000 to 9999/10000 as write_whole_ten_thousandths() writes it:
// ".dddd" without trailing zeros, nothing for 0; its length in the last of its eight bytes.
inline constexpr auto k_fraction_texts = [] {
  std::array<std::array<char, 8>, 10000> texts{};
  for (std::size_t fraction = 1; fraction < texts.size(); ++fraction) {
    auto& text = texts[fraction];
    text[0] = '.';
    std::size_t length = 1;
    for (std::size_t rest = fraction, power = 1000; rest != 0; rest %= power, power /= 10) {
      text[length++] = static_cast<char>('0' + rest / power);
    }
    text.back() = static_cast<char>(length);
  }
  return texts;
}();

// The text of each whole number below 10000, and in the last of its eight bytes its length.
inline constexpr auto k_small_whole_texts = [] {
  std::array<std::array<char, 8>, 10000> texts{};
  for (std::size_t value = 0; value < texts.size(); ++value) {
    auto& text = texts[value];
    const std::size_t length = value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : 4;
    for (std::size_t i = length, rest = value; i-- > 0; rest /= 10) {
      text[i] = static_cast<char>('0' + rest % 10);
    }
    text.back() = static_cast<char>(length);
  }
  return texts;
}();

// Write `value` in decimal at `out`, two digits at a time from its last, and return the end.
inline char* write_unsigned_by_pairs(char* out, std::uint64_t value) {
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

// Write `value` (below 10000) at `out`, which has room for eight characters, and return the end.
inline char* write_small_whole(char* out, std::uint64_t value) {
  const auto& text = k_small_whole_texts[value];
  std::memcpy(out, text.data(), text.size());
  return out + text.back();
}

// Write `value` (below 10000) at `out` as four digits, leading zeros kept.
inline void write_four_digits(char* out, std::uint64_t value) {
  write_digit_pair(out, static_cast<unsigned>(value / 100));
  write_digit_pair(out + 2, static_cast<unsigned>(value % 100));
}

// Write `value` in decimal at `out`, which has room for 20 characters, and return the end. Below
// 10^12 (every volume and turnover of a market) in groups of four digits, the first from a table:
// a loop over pairs ends at a different count from number to number, a mispredicted branch each,
// where how many groups a number has mostly stays the same from bar to bar (issue 11, P5: a
// window writes two such numbers a bar; building all twelve digits and shifting the leading
// zeros out, without that branch, measured slower).
inline char* write_unsigned(char* out, std::uint64_t value) {
  if (value < 10'000) { // every price below 10,000 yuan
    return write_small_whole(out, value);
  }
  if (value < 100'000'000) {
    out = write_small_whole(out, value / 10'000);
    write_four_digits(out, value % 10'000);
    return out + 4;
  }
  if (value < 1'000'000'000'000) {
    out = write_small_whole(out, value / 100'000'000);
    const auto rest = value % 100'000'000;
    write_four_digits(out, rest / 10'000);
    write_four_digits(out + 4, rest % 10'000);
    return out + 8;
  }
  return write_unsigned_by_pairs(out, value);
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

// Write `whole`/10000 (|whole| < k_ten_thousandths_written) from its digits at `out`, which has
// room for 20 characters (the fraction is copied as eight), and return the end: "0" for 0.
inline char* write_whole_ten_thousandths(char* out, std::int64_t whole) {
  assert(whole > -k_ten_thousandths_written && whole < k_ten_thousandths_written);
  const auto magnitude = static_cast<std::uint64_t>(whole < 0 ? -whole : whole);
  *out = '-'; // kept only when negative: a change_pct's sign is as good as random
  out += whole < 0 ? 1 : 0;
  const auto integer = magnitude / 10000; // "0" below 1
  out = write_unsigned(out, integer); // every price below 10,000 yuan from one table entry
  // The fraction's text from a table: its digits and their number vary from bar to bar, and a
  // copy of eight bytes costs less than writing them (issue 11, P5).
  const auto& fraction = k_fraction_texts[magnitude % 10000];
  std::memcpy(out, fraction.data(), fraction.size());
  return out + fraction.back();
}

} // namespace ashare::domain
