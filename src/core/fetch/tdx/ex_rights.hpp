// TDX gives raw bars without a pre_close; D18 derives it on an ex-date from the category-1
// ex-rights events (get_xdxr_info): (close_prev x 10 - cash + rights x rights_price) /
// (10 + bonus + rights), per 10 shares, rounded half up to 0.01 CNY; events between two bars
// apply in date order to the later bar. The pre_close feeds the importer's chain of factors, so a
// TDX history's factors step where Tushare's do.
#pragma once

#include "core/error.hpp"
#include "core/fetch/tdx/wire.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace ashare::fetch::tdx {

// Return the pre_close, in whole 1/100 CNY, of a bar whose previous bar closed at
// `previous_close_mils` (1/1000 CNY) when `events` lie between the two (after the previous bar,
// on or before this one; category 1 only, in date order). Each event's four float32 numbers are
// read as the decimals of 4 places nearest to them, and the arithmetic is exact: one rounding, half
// up, at the end. Without events, nullopt: the pre_close is the previous close. An event whose
// numbers no share could carry (not finite, negative, over a million), or more than
// k_max_events_between_bars of them, is an INVALID_INPUT error.
inline constexpr std::size_t k_max_events_between_bars = 8;
Result<std::optional<std::int64_t>> ex_rights_pre_close_cents(std::int64_t previous_close_mils,
                                                              std::span<const XdxrEvent> events);

} // namespace ashare::fetch::tdx
