// `ashare export --format qlib` (issue 15): the store's bars in qlib's layout (qlib/layout),
// written afresh or, when the directory holds an earlier export with the same --from, brought up
// to date as qlib's dump_update does: each symbol's days after its last exported bar are appended,
// and only a symbol whose stored history changed since (a re-import, a remove) is written again.
// Either way the files are byte for byte those of a fresh export. A state file in the directory
// (k_state_file) records what was exported; a run cut short leaves it saying so, and the next run
// writes everything again.
#pragma once

#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/error.hpp"
#include "core/store/bar_store.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ashare::qlib {

inline constexpr const char* k_state_file = ".ashare-export.json";

struct ExportRequest {
  std::filesystem::path dir;           // the qlib data directory (provider_uri)
  std::vector<domain::Symbol> symbols; // empty: every stored symbol
  std::optional<domain::Date> from;    // the window of exported bars; unset: all history
  std::optional<domain::Date> to;
};

struct ExportReport {
  std::int64_t symbols = 0; // exported: with at least one bar in the window
  std::int64_t bars = 0;
  std::int64_t calendar_days = 0;
  // Set when the directory held an earlier export that was written again whole: why.
  std::optional<std::string> fresh_reason;
  std::vector<std::string> written;   // written whole: new to the directory (or a fresh export)
  std::vector<std::string> rewritten; // written whole again: their stored history changed
  std::vector<std::string> appended;  // later days appended
  std::vector<std::string> removed;   // in the earlier export, no longer exported
  std::vector<std::string> index_files; // D20: instruments/NAME.txt of each index with members
};

// Called with the symbols done and the total, as the export goes.
using ExportProgress = std::function<void(std::int64_t done, std::int64_t total)>;

// Export the bars of `store` that `request` names into request.dir (created when missing), reading
// one snapshot of the store. Fails with INVALID_SYMBOL for a symbol the store does not hold,
// INVALID_INPUT for a directory that holds other files than an earlier export's, and
// INVALID_PARAMETER when `from` is later than `to`. Throws on I/O and store failures.
Result<ExportReport> export_qlib(store::BarStore& store,
                                 const ExportRequest& request,
                                 const ExportProgress& progress = {});

} // namespace ashare::qlib
