// Text from outside (a file's bytes, a remote's messages) made safe to show on a terminal.
#pragma once

#include <string>
#include <string_view>

namespace ashare::domain {

// Return `text` with every control character (C0, DEL and C1) and every byte that is not part of
// well-formed UTF-8 written as \xNN, the rest (printable ASCII, other UTF-8 such as 日期) kept:
// quoted in a message, a file's content cannot move the cursor, change colours or forge a line
// (D16).
std::string printable(std::string_view text);

} // namespace ashare::domain
