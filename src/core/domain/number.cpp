#include "core/domain/number.hpp"

#include "core/domain/decimal_digits.hpp"
#include "core/domain/text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace ashare::domain {
namespace {

// Strip leading zeros of the digit string and fold trailing zeros into the exponent.
Decimal normalised(bool negative, std::string digits, long long exponent) {
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    return Decimal{};
  }
  digits.erase(0, first);
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  return Decimal{negative, std::move(digits), static_cast<int>(exponent)};
}

// Return whether `text` is an optional '-', digits, and optionally '.' and more digits, at most
// 40 characters: from_chars reads such text exactly, and it can neither overflow nor underflow.
bool is_plain_decimal(std::string_view text) {
  if (text.empty() || text.size() > 40) {
    return false;
  }
  std::size_t i = text[0] == '-' ? 1 : 0;
  const std::size_t whole = i;
  while (i < text.size() && is_digit(text[i])) {
    ++i;
  }
  if (i == whole) {
    return false;
  }
  if (i < text.size() && text[i] == '.') {
    const std::size_t fraction = ++i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
    }
    if (i == fraction) {
      return false;
    }
  }
  return i == text.size();
}

} // namespace

std::optional<Decimal> parse_decimal(std::string_view text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  std::string digits;
  long long exponent = 0;
  std::size_t mantissa_digits = 0;
  for (; i < text.size() && is_digit(text[i]); ++i, ++mantissa_digits) {
    digits.push_back(text[i]);
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && is_digit(text[i]); ++i, ++mantissa_digits) {
      digits.push_back(text[i]);
      --exponent;
    }
  }
  if (mantissa_digits == 0) {
    return std::nullopt;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
      exponent_negative = text[i] == '-';
      ++i;
    }
    long long written = 0;
    std::size_t exponent_digits = 0;
    for (; i < text.size() && is_digit(text[i]); ++i, ++exponent_digits) {
      if (written < 100'000) {
        written = written * 10 + (text[i] - '0');
      }
    }
    if (exponent_digits == 0) {
      return std::nullopt;
    }
    exponent += exponent_negative ? -written : written;
  }
  if (i != text.size() || exponent > 100'000 || exponent < -100'000) {
    return std::nullopt;
  }
  return normalised(negative, std::move(digits), exponent);
}

Decimal scale_decimal(Decimal value, int power) {
  if (!is_zero(value)) {
    value.exponent += power;
  }
  return value;
}

bool is_zero(const Decimal& value) {
  return value.digits == "0";
}

std::optional<std::int64_t> to_int64(const Decimal& value) {
  if (is_zero(value)) {
    return 0;
  }
  if (value.exponent < 0 || value.digits.size() + static_cast<std::size_t>(value.exponent) > 19) {
    return std::nullopt;
  }
  unsigned long long magnitude = 0;
  for (char c : value.digits) {
    magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
  }
  for (int i = 0; i < value.exponent; ++i) {
    magnitude *= 10;
  }
  const auto max = static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max());
  if (magnitude > max) {
    return std::nullopt;
  }
  const auto signed_value = static_cast<std::int64_t>(magnitude);
  return value.negative ? -signed_value : signed_value;
}

std::optional<double> parse_double(std::string_view text) {
  if (is_plain_decimal(text)) {
    double out = 0;
    [[maybe_unused]] const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), out, std::chars_format::fixed);
    assert(error == std::errc{} && end == text.data() + text.size());
    return out == 0 ? 0.0 : out; // parse_decimal's zero has no sign: "-0.0" is 0
  }
  const auto decimal = parse_decimal(text);
  if (!decimal) {
    return std::nullopt;
  }
  return to_double(*decimal);
}

std::optional<std::int64_t> parse_plain_integer(std::string_view text) {
  const std::size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
  const std::size_t digits = text.size() - sign;
  if (digits == 0 || digits > 18) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  for (std::size_t i = sign; i < text.size(); ++i) {
    if (!is_digit(text[i])) {
      return std::nullopt;
    }
    value = value * 10 + (text[i] - '0');
  }
  return sign ? -value : value;
}

double to_double(const Decimal& value) {
  // Clinger's fast path: at most 15 digits and 10^|exponent| at most 10^22 are both exact
  // doubles, so one IEEE multiplication or division rounds correctly, as from_chars would.
  static constexpr std::array<double, 23> k_powers{
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (value.digits.size() <= 15 && value.exponent >= -22 && value.exponent <= 22) {
    std::int64_t mantissa = 0;
    for (const char c : value.digits) {
      mantissa = mantissa * 10 + (c - '0');
    }
    const auto exact = static_cast<double>(mantissa);
    const double magnitude = value.exponent < 0 ? exact / k_powers[-value.exponent]
                                                : exact * k_powers[value.exponent];
    return value.negative ? -magnitude : magnitude;
  }
  // Otherwise "-digits" "e" exponent for from_chars, on the stack unless the digits are many.
  const std::size_t size = value.digits.size() + 16;
  char stack[128];
  std::string heap;
  char* const begin = size <= sizeof stack ? stack : (heap.resize(size), heap.data());
  char* end = begin;
  if (value.negative) {
    *end++ = '-';
  }
  end = std::copy(value.digits.begin(), value.digits.end(), end);
  *end++ = 'e';
  end = std::to_chars(end, begin + size, value.exponent).ptr;
  double out = 0;
  const auto [stop, error] = std::from_chars(begin, end, out, std::chars_format::scientific);
  if (error == std::errc::result_out_of_range) {
    // from_chars leaves `out` untouched on overflow and underflow; mirror strtod instead. The
    // magnitude, not the exponent, tells which: 400 digits with exponent 0 overflow.
    const bool overflow = static_cast<long long>(value.digits.size()) + value.exponent > 0;
    return overflow ? (value.negative ? -HUGE_VAL : HUGE_VAL) : (value.negative ? -0.0 : 0.0);
  }
  assert(error == std::errc{} && stop == end);
  return out;
}

namespace {

// Return whether `value` is the double nearest to `whole`/10000 (whole != 0, |whole| < 10^15,
// of the sign of `value`), as static_cast<double>(whole) / 10000 == value says, without the
// division's latency (a bar's JSON asks seven times). With |value| = M * 2^-s (M of 53 bits, not
// a power of two, so the doubles on both sides are 2^-s apart), that is |W/10^4 - M*2^-s| below
// half of 2^-s, i.e. |M*10^4 - W*2^s| < 5000, i.e. (dividing by 16) |M*625 - W*2^(s-4)| <= 312,
// in 64-bit integers. Powers of two, and values where that might not fit, take the division.
bool is_nearest_to_ten_thousandths(double value, std::int64_t whole) {
  const auto bits = std::bit_cast<std::uint64_t>(value) & ~(std::uint64_t{1} << 63);
  const auto biased_exponent = static_cast<int>(bits >> 52);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const int shift = 1075 - biased_exponent - 4; // s - 4
  const auto w = static_cast<std::uint64_t>(whole < 0 ? -whole : whole);
  if (biased_exponent == 0 || fraction == 0 || shift < 0 || shift >= 63) {
    return static_cast<double>(whole) / 10000 == value;
  }
  constexpr std::uint64_t k_largest = std::numeric_limits<std::int64_t>::max();
  if (w > (k_largest >> shift)) {
    return false; // W*2^(s-4) >= 2^63 > M*625 + 312: far apart
  }
  const auto m625 = static_cast<std::int64_t>((fraction | (std::uint64_t{1} << 52)) * 625);
  const auto difference = m625 - static_cast<std::int64_t>(w << shift);
  return difference >= -312 && difference <= 312;
}

// Write `value` to `out` when it is the double nearest to k/10000 for a whole nonzero k with
// |k| < 10^15, and return the end; else nullptr. Such a decimal has at most 15 significant
// digits, so no other decimal of as few digits rounds to the same double (DBL_DIG): its own
// digits are the shortest round-trip ones that to_chars would find, and writing k with a decimal
// point is several times faster (issue 11, P5: a bar's JSON holds seven such numbers). Prices,
// turnover and change_pct mostly are such values (store/stored_number), and D8's adjusted prices
// always are.
char* write_if_ten_thousandths(char* out, double value) {
  constexpr double k_scale = 10000;
  const double scaled = value * k_scale;
  if (!(std::fabs(scaled) < static_cast<double>(k_ten_thousandths_written))) {
    return nullptr;
  }
  const auto whole = static_cast<std::int64_t>(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
  if (whole == 0 || !is_nearest_to_ten_thousandths(value, whole)) {
    return nullptr;
  }
  return write_whole_ten_thousandths(out, whole);
}

} // namespace

char* write_number(char* out, double value) {
  if (!std::isfinite(value)) {
    throw NonFiniteNumber(); // rather than "inf" or "nan", which JSON and D12 do not have
  }
  if (value == 0) {
    *out++ = '0'; // also for -0.0
    return out;
  }
  if (char* end = write_if_ten_thousandths(out, value)) {
    return end;
  }
  // Fixed notation of the largest double takes 309 characters, of the smallest 326.
  const auto result = std::to_chars(out, out + k_max_number_chars, value, std::chars_format::fixed);
  assert(result.ec == std::errc{});
  return result.ptr;
}

void append_number(std::string& out, double value) {
  char buffer[k_max_number_chars];
  out.append(buffer, write_number(buffer, value));
}

void append_integer(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

std::string format_number(double value) {
  std::string out;
  append_number(out, value);
  return out;
}

} // namespace ashare::domain
