// TDX gives raw bars without a pre_close; D18 derives it on an ex-date from the ex-rights events
// (get_xdxr_info). Category 1 (dividends and rights): (close_prev x 10 - cash + rights x
// rights_price) / (10 + bonus + rights), per 10 shares or units; category 11 (a fund's units split
// or merged, D20): close_prev / r, r new units per old unit. Rounded half up to the tick: a
// stock's 0.01 CNY, a fund's 0.001 (D20). Events between two bars apply in date order to the later
// bar. The pre_close feeds the importer's chain of factors, so a TDX history's factors step where
// Tushare's do.
#pragma once

#include "core/error.hpp"
#include "core/fetch/tdx/wire.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace ashare::fetch::tdx {

// The tick a pre_close is rounded to, in 1/1000 CNY.
enum class Tick : std::int64_t {
  cent = 10, // a stock's: 0.01 CNY
  mil = 1,   // a fund's: 0.001 CNY (D20)
};

// Return the pre_close, in whole 1/1000 CNY rounded half up to `tick`, of a bar whose previous bar
// closed at `previous_close_mils` (1/1000 CNY) when `events` lie between the two (after the
// previous bar, on or before this one, in date order; categories 1 and 11 count, any other is
// passed over: the caller picks which apply to the kind). Each event's four float32 numbers are
// read as the decimals of 4 places nearest to them, and the arithmetic is exact: one rounding,
// half up, at the end. Without events, nullopt: the pre_close is the previous close. An event
// whose numbers no share could carry (not finite, negative, over a million; a split of no units),
// or more than k_max_events_between_bars of them, is an INVALID_INPUT error.
inline constexpr std::size_t k_max_events_between_bars = 8;
Result<std::optional<std::int64_t>> ex_rights_pre_close(std::int64_t previous_close_mils,
                                                        std::span<const XdxrEvent> events,
                                                        Tick tick);

} // namespace ashare::fetch::tdx
