// Numbers as D12 wants them: vendor decimal text parsed and scaled exactly (never by multiplying a
// parsed double), and doubles written with the shortest round-trip digits, never in exponent form.
#pragma once

#include "core/domain/decimal_digits.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ashare::domain {

// An exact decimal: (-1)^negative * digits * 10^exponent, digits without leading zeros ("0" for 0).
struct Decimal {
  bool negative = false;
  std::string digits = "0";
  int exponent = 0;
};

// Parse decimal text such as "39354.45", "-1.5", "+7", "1e3" or ".5"; surrounding spaces are not
// accepted. Return nullopt for anything else (empty, "nan", "1,5", "0x10", ...).
std::optional<Decimal> parse_decimal(std::string_view text);

// Return the double nearest to the text that parse_decimal accepts (to_double of it, with its
// unsigned zero), or nullopt where parse_decimal gives nullopt. Plain text such as "-12.5" is
// read in place, without a Decimal: the importers' hot path (issue 11, P3).
std::optional<double> parse_double(std::string_view text);

// Return the value of plain integer text (an optional '-' and 1 to 18 digits), or nullopt for any
// other text, which parse_decimal and to_int64 then judge.
std::optional<std::int64_t> parse_plain_integer(std::string_view text);

// Return `value` multiplied by 10^`power` (exact: only the exponent moves).
Decimal scale_decimal(Decimal value, int power);

// Return `value` as an int64 when it is a whole number in range, else nullopt.
std::optional<std::int64_t> to_int64(const Decimal& value);

// Return the double nearest to `value` (correctly rounded, as from_chars does).
double to_double(const Decimal& value);

// Return whether `value` is zero.
bool is_zero(const Decimal& value);

// Append `value` to `out` with std::to_chars fixed and shortest round-trip digits: 1525.4 is
// "1525.4", 1e-7 is "0.0000001", 3.0 is "3", -0.0 is "0"; NonFiniteNumber for inf or NaN.
void append_number(std::string& out, double value);

// The most characters write_number() writes.
inline constexpr std::size_t k_max_number_chars = 400;

// Thrown by write_number() (and so append_number() and format_number()) for an infinite or NaN
// value, which no text of D12 holds and JSON cannot: a server answers it with a logged 500, the
// command line with an error (issue 13; D16's bounds keep every stored value from producing one).
struct NonFiniteNumber : std::domain_error {
  NonFiniteNumber() : std::domain_error("a number to write is not finite") {}
};

// Write append_number's text of `value` at `out`, which has room for k_max_number_chars, and
// return its end; NonFiniteNumber when `value` is infinite or NaN.
char* write_number(char* out, double value);

// Write what write_number(static_cast<double>(whole) / 10000) writes, for a whole number of
// 1/10000s (store/stored_number): below 10^15 in magnitude straight from its digits, without a
// double's round trip (issue 11, P5: a compact history's bars are written so per request).
inline char* write_ten_thousandths(char* out, std::int64_t whole) {
  if (whole > -k_ten_thousandths_written && whole < k_ten_thousandths_written) {
    return write_whole_ten_thousandths(out, whole);
  }
  return write_number(out, static_cast<double>(whole) / 10000);
}

// Append the integer `value` to `out`.
void append_integer(std::string& out, std::int64_t value);

// Return append_number's text of `value`.
std::string format_number(double value);

} // namespace ashare::domain
