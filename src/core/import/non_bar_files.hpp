// The files `import` reads that hold no bars (D19): one table of kinds, each a row with its
// --format name, how its header row is recognised and what loads it into the store in one
// transaction. A trade_cal CSV is the first; listings and code mappings are rows to come.
#pragma once

#include "core/error.hpp"
#include "core/store/bar_store.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::import {

struct NonBarKind {
  std::string_view name; // as --format names it, e.g. "trade_cal"
  bool (*matches)(const std::vector<std::string>& header);
  // Load the file at `path` into `store` in one transaction; return what was stored, in words.
  Result<std::string> (*load)(store::BarStore& store, const std::filesystem::path& path);
};

// Return the kind named `name`, or nullptr.
const NonBarKind* find_non_bar_kind(std::string_view name);

// Return the kind whose header the first line of the file at `path` is, or nullptr (a bar file,
// or no file: the bar importers then say what is wrong).
const NonBarKind* detect_non_bar_kind(const std::filesystem::path& path);

} // namespace ashare::import
