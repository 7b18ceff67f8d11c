// Every missing bar explained (D19): for each symbol, each open day of a window without a bar is
// exactly one of not_listed (before its list date or after its delist date), suspended (the
// source's suspension list), absent_at_source (asked again, and the source has none either) or
// missing (a gap a fetch can fill: `fetch --repair`). Closed days are never gaps. A symbol
// without a listing is judged only between its first and last stored bars. D20: by default a
// symbol is judged from the first ledger day of its kind, and a kind without one (no fetch took
// it) as a symbol without a listing is.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"
#include "core/store/bar_store.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::fetch {

enum class GapReason { not_listed, suspended, absent_at_source, missing };

inline constexpr std::array k_gap_reasons{GapReason::not_listed, GapReason::suspended,
                                          GapReason::absent_at_source, GapReason::missing};

// Return the name of `reason` as D19 spells it ("not_listed", ...).
std::string_view gap_reason_name(GapReason reason);

struct Gap {
  std::string symbol;
  domain::Date day;
  GapReason reason = GapReason::missing;
};

struct GapReport {
  std::vector<Gap> gaps; // by symbol, then day
  std::array<std::int64_t, k_gap_reasons.size()> counts{}; // indexed by GapReason
  std::int64_t symbols = 0; // judged
  std::optional<domain::Date> from;
  std::optional<domain::Date> to;

  std::int64_t count(GapReason reason) const { return counts[static_cast<std::size_t>(reason)]; }
};

struct GapRequest {
  std::vector<std::string> symbols; // empty: every stored or listed symbol
  std::optional<domain::Date> from; // default: the first ledger day (each kind's), else the first stored bar
  std::optional<domain::Date> to;   // default: the store's as_of
};

// Find the gaps of `request` in `store`. An INVALID_SYMBOL error for a named symbol the store
// neither holds nor lists; INVALID_PARAMETER when `from` is after `to`.
Result<GapReport> find_gaps(store::BarStore& store, const GapRequest& request);

} // namespace ashare::fetch
