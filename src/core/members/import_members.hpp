// D20: `import --format members --index CODE FILE`: an index company's announced membership
// (members/announcements.hpp) stored as the index's imported spans, replacing those of an
// earlier import, in one change of the store.
#pragma once

#include "core/error.hpp"
#include "core/store/bar_store.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace ashare::members {

// What an import of a membership file stored.
struct MembersImport {
  std::string index_symbol;          // canonical
  std::size_t rows = 0;              // rows read as spans
  std::size_t spans = 0;             // spans stored, overlapping ones merged
  std::size_t symbols = 0;           // distinct members
  std::vector<std::string> warnings; // rows left out, each naming its line
};

// Read the membership file at `path` and replace the imported spans of `index` (a code of an
// index, D1 or qlib spelling) in `store` by its spans, dates moved to open days by the store's
// calendar. INVALID_SYMBOL for a code that is not an index's, INVALID_INPUT for a file that is
// not one (nothing is stored then).
Result<MembersImport>
import_members(store::BarStore& store, const std::string& index, const std::filesystem::path& path);

} // namespace ashare::members
