// The file formats `import` reads, their names, and telling them apart from a file's first bytes.
#pragma once

#include "core/error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ashare::import {

enum class SourceFormat { canonical, tushare, akshare, baostock, tdx, tdx_text };

// Return the name of `format` as `--format` spells it ("tushare", ...).
std::string_view source_format_name(SourceFormat format);

// Return the format named `name`, or nullopt ("auto" is not a format: see detect_source_format).
std::optional<SourceFormat> find_source_format(std::string_view name);

// Tell the format of a file from its name `path` and its first bytes `head` (at least the first
// two lines, or 64 bytes of a binary file): a `.day` name or TDX-shaped records are tdx, TDX's
// column header on the second line (GBK or UTF-8) is tdx-text, otherwise the header row decides.
// Return INVALID_INPUT naming the file when nothing matches.
Result<SourceFormat> detect_source_format(const std::filesystem::path& path, std::string_view head);

// Return the symbol that the name of `path` carries for formats without a symbol column:
// "600519.SH.csv" (any format), TDX's "sh600000.day" or its export's "SH#510300.txt". A bare
// "600519.csv" does not say the exchange: that is an INVALID_INPUT error asking for --symbol.
Result<std::string> symbol_from_file_name(const std::filesystem::path& path);

} // namespace ashare::import
