// CompactBars::encode(): bars into the stream that query/compact_bars_format.hpp lays out, each
// number in its history's largest common unit and against what the bar's other numbers predict.
#include "core/query/compact_bars.hpp"

#include "core/query/compact_bars_format.hpp"
#include "core/store/stored_number.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <optional>
#include <utility>

namespace ashare::query {
namespace {

using namespace compact_format;

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Return the largest power (at most `power`) whose unit divides `value`.
int common_power(std::int64_t value, int power) {
  while (power > 0 && value % k_pow10[static_cast<std::size_t>(power)] != 0) {
    --power;
  }
  return power;
}

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

std::uint64_t zigzag(std::int64_t value) {
  // Small magnitudes of either sign take few bytes.
  return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}

// Return the length code of `value`: the fewest bytes that hold it.
std::uint32_t length_code(std::uint64_t value) {
  const auto bytes = (std::bit_width(value) + 7) / 8;
  return bytes <= 6 ? static_cast<std::uint32_t>(bytes) : 7;
}

void put_double(std::vector<std::uint8_t>& out, double value) {
  const auto bits = std::bit_cast<std::array<std::uint8_t, sizeof(double)>>(value);
  out.insert(out.end(), bits.begin(), bits.end());
}

// A bar as the stream keeps it: its numbers in 1/10000 units where they are whole, and whether
// its change_pct is the derived one.
struct ScaledBar {
  std::optional<std::int64_t> close, open, high, low, turnover, change_pct;
  bool change_derived = false;

  std::uint8_t exceptions() const {
    return static_cast<std::uint8_t>((close ? 0 : Field::close) | (open ? 0 : Field::open)
                                     | (high ? 0 : Field::high) | (low ? 0 : Field::low)
                                     | (turnover ? 0 : Field::turnover)
                                     | (change_derived || change_pct ? 0 : Field::change_pct));
  }
};

// Return `bar` as the stream keeps it; `previous` is the bar before it in the same block, from
// which its change_pct may be derived (nullptr for a block's first bar).
ScaledBar scale(const domain::Bar& bar, const domain::Bar* previous) {
  ScaledBar out;
  out.close = store::find_scaled(bar.close);
  out.open = store::find_scaled(bar.open);
  out.high = store::find_scaled(bar.high);
  out.low = store::find_scaled(bar.low);
  out.turnover = store::find_scaled(bar.turnover);
  out.change_derived =
    previous != nullptr
    && same_bits(bar.change_pct, domain::derived_change_pct(bar.close, bar.factor, previous->close,
                                                            previous->factor));
  if (!out.change_derived) {
    out.change_pct = store::find_scaled(bar.change_pct);
  }
  return out;
}

// The size of each kind of number's unit, in 1/10000s.
struct UnitSizes {
  std::int64_t price = 1;
  std::int64_t volume = 1;
  std::int64_t turnover = 1;
  std::int64_t change_pct = 1;
};

// The units of a history's numbers as powers of ten of 1/10000: each the largest that divides
// every whole value of its kind.
struct UnitPowers {
  int price = 4;
  int volume = k_max_power;
  int turnover = k_max_power;
  int change_pct = 4;

  // Lower the powers so that they divide the numbers of `bar`, kept as `scaled`.
  void fit(const domain::Bar& bar, const ScaledBar& scaled) {
    volume = common_power(bar.volume, volume);
    for (const auto& value : {scaled.close, scaled.open, scaled.high, scaled.low}) {
      price = value ? common_power(*value, price) : price;
    }
    turnover = scaled.turnover ? common_power(*scaled.turnover, turnover) : turnover;
    change_pct = scaled.change_pct ? common_power(*scaled.change_pct, change_pct) : change_pct;
  }

  UnitSizes sizes() const {
    const auto size = [](int power) { return k_pow10[static_cast<std::size_t>(power)]; };
    return UnitSizes{size(price), size(volume), size(turnover), size(change_pct)};
  }
};

// Return each bar of `ascending` as the stream keeps it, and fit `powers` to them all.
std::vector<ScaledBar> scale_all(std::span<const domain::Bar> ascending, UnitPowers& powers) {
  std::vector<ScaledBar> scaled;
  scaled.reserve(ascending.size());
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    // A block's first bar is read without the bar before it: its change_pct is always kept.
    const auto& s = scaled.emplace_back(
      scale(ascending[i], i % CompactBars::k_block_bars == 0 ? nullptr : &ascending[i - 1]));
    powers.fit(ascending[i], s);
  }
  return scaled;
}

// Writes bars into a stream as CompactBars::Decoder reads them: a head byte, what it says
// follows, the integers behind their control bytes, then the doubles. Each block starts afresh.
class BarWriter {
public:
  BarWriter(std::vector<std::uint8_t>& stream, UnitSizes units)
      : m_stream(stream), m_units(units) {}

  // Append `bar`, kept as `scaled`; `block_start` when it is its block's first.
  void write(const domain::Bar& bar, const ScaledBar& scaled, bool block_start) {
    if (block_start) {
      m_day = day_number(bar.trade_date);
      m_last_close = 0;
    }
    const std::uint8_t exceptions = scaled.exceptions();
    write_head(bar, scaled, exceptions, block_start);
    write_integers(deltas(bar, scaled, block_start));
    write_doubles(bar, exceptions);
  }

private:
  // Append the head byte and what it says follows: the distance as a varint when far, the
  // factor when it changed (always at a block's start), the byte of `exceptions`.
  void write_head(const domain::Bar& bar,
                  const ScaledBar& scaled,
                  std::uint8_t exceptions,
                  bool block_start) {
    const std::int32_t distance = day_number(bar.trade_date) - m_day;
    assert(distance >= 0 && (distance > 0 || block_start)); // ascending, distinct dates
    m_day += distance;
    const bool factor_follows = block_start || !same_bits(bar.factor, m_factor);
    m_stream.push_back(static_cast<std::uint8_t>(
        (distance < k_far_day ? distance : k_far_day) | (factor_follows ? k_factor_follows : 0)
        | (exceptions != 0 ? k_exceptions_follow : 0)
        | (scaled.change_derived ? k_change_derived : 0)));
    if (distance >= k_far_day) {
      put_varint(m_stream, static_cast<std::uint64_t>(distance));
    }
    if (factor_follows) {
      m_factor = bar.factor;
      put_double(m_stream, m_factor);
    }
    if (exceptions != 0) {
      m_stream.push_back(exceptions);
    }
  }

  // Return the integers of `bar` (kept as `s`) in Slot order, and keep its close as the next
  // bar's base: each number as the decoder rebuilds it, `base` plus delta * `unit`, delta 0 (and
  // units `base`) for a number kept as a double.
  std::array<std::int64_t, k_slots>
  deltas(const domain::Bar& bar, const ScaledBar& s, bool block_start) {
    std::array<std::int64_t, k_slots> delta{};
    const auto number = [&delta](Slot slot, const std::optional<std::int64_t>& value,
                                 std::int64_t base, std::int64_t unit) {
      if (!value) {
        return base;
      }
      delta[slot] = (*value - base) / unit;
      return *value;
    };
    const std::int64_t price_unit = m_units.price;
    const std::int64_t previous_close = block_start ? 0 : m_last_close;
    const std::int64_t close = number(close_slot, s.close, m_last_close, price_unit);
    m_last_close = close;
    const std::int64_t open = number(open_slot, s.open, close, price_unit);
    const std::int64_t high = number(high_slot, s.high, std::max(open, close), price_unit);
    const std::int64_t low = number(low_slot, s.low, std::min(open, close), -price_unit);
    delta[volume_slot] = bar.volume / m_units.volume;
    number(turnover_slot, s.turnover, expected_turnover(bar.volume, high, low, m_units.turnover),
           m_units.turnover);
    if (!s.change_derived) {
      number(change_slot, s.change_pct,
             expected_change_pct(close, previous_close, m_units.change_pct), m_units.change_pct);
    }
    return delta;
  }

  // Append the three control bytes (each integer's length code), then each integer's bytes.
  void write_integers(const std::array<std::int64_t, k_slots>& delta) {
    std::uint32_t control = 0;
    for (int slot = 0; slot < k_slots; ++slot) {
      control |= length_code(zigzag(delta[static_cast<std::size_t>(slot)])) << (3 * slot);
    }
    for (int byte = 0; byte < k_control_bytes; ++byte) {
      m_stream.push_back(static_cast<std::uint8_t>(control >> (8 * byte)));
    }
    for (int slot = 0; slot < k_slots; ++slot) {
      const auto bits = zigzag(delta[static_cast<std::size_t>(slot)]);
      for (int byte = 0; byte < k_code_bytes[(control >> (3 * slot)) & 7]; ++byte) {
        m_stream.push_back(static_cast<std::uint8_t>(bits >> (8 * byte)));
      }
    }
  }

  // Append the numbers of `bar` that `exceptions` names as doubles, in the order of Field, as
  // the decoder reads them.
  void write_doubles(const domain::Bar& bar, std::uint8_t exceptions) {
    const std::pair<Field, double> doubles[] = {
        {Field::close, bar.close},         {Field::open, bar.open},
        {Field::high, bar.high},           {Field::low, bar.low},
        {Field::turnover, bar.turnover},   {Field::change_pct, bar.change_pct},
    };
    for (const auto& [field, value] : doubles) {
      if ((exceptions & field) != 0) {
        put_double(m_stream, value);
      }
    }
  }

  std::vector<std::uint8_t>& m_stream;
  UnitSizes m_units;
  std::int32_t m_day = 0;
  std::int64_t m_last_close = 0; // units of the previous close in this block
  double m_factor = 1;           // the factor last written
};

} // namespace

CompactBars CompactBars::encode(std::span<const domain::Bar> ascending) {
  CompactBars out;
  out.m_size = ascending.size();
  UnitPowers powers;
  const auto scaled = scale_all(ascending, powers);
  out.m_units = Units{static_cast<std::uint8_t>(powers.price),
                      static_cast<std::uint8_t>(powers.volume),
                      static_cast<std::uint8_t>(powers.turnover),
                      static_cast<std::uint8_t>(powers.change_pct)};
  auto& stream = out.m_stream;
  stream.reserve(ascending.size() * 24);
  BarWriter writer(stream, powers.sizes());
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    const bool block_start = i % k_block_bars == 0;
    if (block_start) {
      out.m_blocks.push_back(
        Block{day_number(ascending[i].trade_date), static_cast<std::uint32_t>(stream.size())});
    }
    writer.write(ascending[i], scaled[i], block_start);
  }
  stream.insert(stream.end(), k_padding, 0);
  stream.shrink_to_fit();
  out.m_blocks.shrink_to_fit();
  return out;
}

} // namespace ashare::query
