// The stream CompactBars keeps (query/compact_bars.hpp describes it): the head byte's flags, the
// numbers' order, their length codes, the units and the two predictions that the encoder
// (compact_bars_encode.cpp) and the decoder (compact_bars.cpp) must compute alike. Inline, so
// that the decoder's loop compiles as it did with them in its own file (issue 11, P5).
#pragma once

#include "core/domain/date.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace ashare::query::compact_format {

// A bar's first byte: its date's distance from the previous bar's in days (k_far_day: a varint
// follows), then three flags.
inline constexpr std::uint8_t k_day_mask = 0x1f;
inline constexpr std::uint8_t k_far_day = 0x1f;
inline constexpr std::uint8_t k_factor_follows = 0x20; // as a double
// A byte of Field bits follows: the numbers kept as doubles.
inline constexpr std::uint8_t k_exceptions_follow = 0x40;
// change_pct is derived_change_pct(): not kept.
inline constexpr std::uint8_t k_change_derived = 0x80;

// The numbers of a bar that are whole 1/10000s or not, in the order they are written.
enum Field : std::uint8_t {
  close = 1,
  open = 2,
  high = 4,
  low = 8,
  turnover = 16,
  change_pct = 32,
};

// A bar's integers, in the order they are written: each is a zigzag number of as many bytes as
// its 3-bit length code in the bar's three control bytes says. Lengths known before the bytes
// are read decode without a branch per byte, where a varint's end is a branch mispredicted about
// once a number (issue 11, P5).
enum Slot : int { close_slot, open_slot, high_slot, low_slot, volume_slot, turnover_slot,
                  change_slot, k_slots };
inline constexpr int k_control_bytes = 3;
inline constexpr std::array<std::uint8_t, 8> k_code_bytes = {0, 1, 2, 3, 4, 5, 6, 8};
inline constexpr std::array<std::uint64_t, 8> k_code_masks = {
    0, 0xff, 0xffff, 0xff'ffff, 0xffff'ffff, 0xff'ffff'ffff, 0xffff'ffff'ffff, ~std::uint64_t{0}};
// Bytes past the last bar, so that reading a number as eight bytes never leaves the stream.
inline constexpr std::size_t k_padding = 8;

inline constexpr int k_max_power = 9;
inline constexpr std::array<std::int64_t, k_max_power + 1> k_pow10 = {
    1, 10, 100, 1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000};

inline std::int32_t day_number(domain::Date date) {
  return static_cast<std::int32_t>(date.days().time_since_epoch().count());
}

inline domain::Date date_of(std::int32_t day) {
  return domain::Date(std::chrono::sys_days(std::chrono::days(day)));
}

// Return about round(`estimate` / `unit`) * `unit`, or 0 when `estimate` is NaN or huge. Any
// function of the bar's numbers would do, as long as encode() and the decoder call the same one:
// a multiplication, not a division, keeps decoding fast.
inline std::int64_t nearest_multiple(double estimate, std::int64_t unit) {
  if (!(std::fabs(estimate) < 1e15)) {
    return 0;
  }
  const double units = estimate * (1.0 / static_cast<double>(unit));
  // Half away from zero without a branch: an expected change_pct's sign is as good as random,
  // and a mispredicted branch a bar cost more than the rest of this.
  return static_cast<std::int64_t>(units + std::copysign(0.5, units)) * unit;
}

// Return the turnover expected of a bar (1/10000 units, a multiple of `unit`) from its volume
// and the units of its high and low: its volume at the middle of its range. A turnover is kept as
// its difference from this, about a byte shorter on real data.
inline std::int64_t
expected_turnover(std::int64_t volume, std::int64_t high, std::int64_t low, std::int64_t unit) {
  return nearest_multiple(static_cast<double>(volume) * static_cast<double>(high + low) * 0.5, unit);
}

// Return the change_pct expected of a bar closing at `close` units after one closing at
// `previous_close` units (0 for none) in 1/10000 units, a multiple of `unit`: the close's change,
// rounded as vendors round it. It matches 99.4% of Tushare's pct_chg (tushare_daily_jenny in
// ../shared/data/real): one byte where three were kept.
inline std::int64_t
expected_change_pct(std::int64_t close, std::int64_t previous_close, std::int64_t unit) {
  return nearest_multiple(
    (static_cast<double>(close) / static_cast<double>(previous_close) - 1) * 1e6, unit);
}

} // namespace ashare::query::compact_format
