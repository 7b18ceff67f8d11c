// Text from outside (a file's bytes, a remote's messages) made safe to show on a terminal, and
// the hexadecimal digits that escapes and encodings spell bytes with.
#pragma once

#include <string>
#include <string_view>

namespace ashare::domain {

// Return `text` with every control character (C0, DEL and C1) and every byte that is not part of
// well-formed UTF-8 written as \xNN, the rest (printable ASCII, other UTF-8 such as 日期) kept:
// quoted in a message, a file's content cannot move the cursor, change colours or forge a line
// (D16).
std::string printable(std::string_view text);

// Return the value of hexadecimal digit `c` (either case), or -1 when it is not one.
int hex_value(char c);

// Whether `c` is one of the ASCII digits 0-9 (std::isdigit depends on the C locale and on `c`
// being non-negative).
inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

} // namespace ashare::domain
