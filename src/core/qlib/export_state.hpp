// What an export directory holds (qlib/exporter): the state file that lets the next export append
// instead of writing everything again. JSON, small: a line per exported symbol.
#pragma once

#include "core/domain/date.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace ashare::qlib {

// One symbol as exported.
struct ExportedSymbol {
  domain::Date first;
  domain::Date last;
  std::uint64_t fingerprint = 0; // of its exported bars and first factor (history_fingerprint)
};

struct ExportState {
  bool complete = false;             // false while an export writes: then nothing can be trusted
  std::optional<domain::Date> from;  // the --from it was made with
  std::map<std::string, ExportedSymbol> symbols; // by canonical symbol
};

// Return the state in `path`, or nullopt when it is missing or unreadable (an unreadable state is
// no state: the export writes everything again).
std::optional<ExportState> load_export_state(const std::filesystem::path& path);

// Write `state` to `path` atomically (a temporary file renamed over it). Throws on I/O failure.
void save_export_state(const std::filesystem::path& path, const ExportState& state);

} // namespace ashare::qlib
