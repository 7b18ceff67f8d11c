// Text that Chinese Windows programs write in GBK (TDX's exports, D20): decoded to UTF-8 once, at
// the edge, so that the rest of the importer compares and prints UTF-8 only.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ashare::import {

// Return `text` as UTF-8: itself when it is valid UTF-8, else decoded from GBK (read as GB18030,
// which contains it); nullopt when it is neither.
std::optional<std::string> utf8_from_utf8_or_gbk(std::string_view text);

} // namespace ashare::import
