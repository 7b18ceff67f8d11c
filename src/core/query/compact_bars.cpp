#include "core/query/compact_bars.hpp"

#include "core/query/adjustment.hpp"
#include "core/store/stored_number.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace ashare::query {
namespace {

// A bar's first byte: its date's distance from the previous bar's in days (k_far_day: a varint
// follows), then three flags.
constexpr std::uint8_t k_day_mask = 0x1f;
constexpr std::uint8_t k_far_day = 0x1f;
constexpr std::uint8_t k_factor_follows = 0x20;  // as a double
constexpr std::uint8_t k_exceptions_follow = 0x40; // a byte of Field bits: those kept as doubles
constexpr std::uint8_t k_change_derived = 0x80;  // change_pct is derived_change_pct(): not kept

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
constexpr int k_control_bytes = 3;
constexpr std::array<std::uint8_t, 8> k_code_bytes = {0, 1, 2, 3, 4, 5, 6, 8};
constexpr std::array<std::uint64_t, 8> k_code_masks = {
    0, 0xff, 0xffff, 0xff'ffff, 0xffff'ffff, 0xff'ffff'ffff, 0xffff'ffff'ffff, ~std::uint64_t{0}};
// Bytes past the last bar, so that reading a number as eight bytes never leaves the stream.
constexpr std::size_t k_padding = 8;

constexpr int k_max_power = 9;
constexpr std::array<std::int64_t, k_max_power + 1> k_pow10 = {
    1, 10, 100, 1'000, 10'000, 100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000};

std::int32_t day_number(domain::Date date) {
  return static_cast<std::int32_t>(date.days().time_since_epoch().count());
}

domain::Date date_of(std::int32_t day) {
  return domain::Date(std::chrono::sys_days(std::chrono::days(day)));
}

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

// Return about round(`estimate` / `unit`) * `unit`, or 0 when `estimate` is NaN or huge. Any
// function of the bar's numbers would do, as long as encode() and the decoder call the same one:
// a multiplication, not a division, keeps decoding fast.
std::int64_t nearest_multiple(double estimate, std::int64_t unit) {
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
std::int64_t
expected_turnover(std::int64_t volume, std::int64_t high, std::int64_t low, std::int64_t unit) {
  return nearest_multiple(static_cast<double>(volume) * static_cast<double>(high + low) * 0.5, unit);
}

// Return the change_pct expected of a bar closing at `close` units after one closing at
// `previous_close` units (0 for none) in 1/10000 units, a multiple of `unit`: the close's change,
// rounded as vendors round it. It matches 99.4% of Tushare's pct_chg (tushare_daily_jenny in
// ../shared/data/real): one byte where three were kept.
std::int64_t
expected_change_pct(std::int64_t close, std::int64_t previous_close, std::int64_t unit) {
  return nearest_multiple(
    (static_cast<double>(close) / static_cast<double>(previous_close) - 1) * 1e6, unit);
}

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

// Set the numbers of `bar` that `exact` holds as whole 1/10000s to their doubles (D12: the
// double nearest, as the store reads them), its prices only when `prices`.
void fill_whole(domain::Bar& bar, const domain::BarTenThousandths& exact, bool prices) {
  const auto fill = [](double& value, std::int64_t whole) {
    if (whole != domain::BarTenThousandths::k_not_whole) {
      value = store::from_scaled(whole);
    }
  };
  if (prices) {
    fill(bar.open, exact.open);
    fill(bar.high, exact.high);
    fill(bar.low, exact.low);
    fill(bar.close, exact.close);
  }
  fill(bar.turnover, exact.turnover);
  fill(bar.change_pct, exact.change_pct);
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

// Reads the stream bar by bar, as encode() wrote it.
class CompactBars::Decoder {
public:
  // Decode from the first bar of block `block` on.
  Decoder(const CompactBars& bars, std::size_t block)
    : m_bars(bars), m_index(block * k_block_bars),
      m_at(bars.m_stream.data() + bars.m_blocks[block].offset),
      m_price_unit(k_pow10[bars.m_units.price]), m_volume_unit(k_pow10[bars.m_units.volume]),
      m_turnover_unit(k_pow10[bars.m_units.turnover]),
      m_change_unit(k_pow10[bars.m_units.change_pct]) {}

  // Return whether a bar is left.
  bool more() const { return m_index < m_bars.m_size; }

  // Return the next bar, its numbers that exact() holds as whole 1/10000s not yet set but its
  // close (fill_whole() sets them). Requires more().
  domain::Bar next() {
    const bool block_start = m_index % k_block_bars == 0;
    if (block_start) {
      m_day = m_bars.m_blocks[m_index / k_block_bars].first_day;
      m_close = 0;
    }
    ++m_index;
    const std::uint8_t head = *m_at++;
    domain::Bar bar;
    read_date_and_factor(head, bar);
    const std::uint8_t exceptions = (head & k_exceptions_follow) != 0 ? *m_at++ : 0;
    set_numbers(read_integers(), block_start, bar);
    if (exceptions != 0) {
      read_doubles(exceptions, bar);
    }
    if ((head & k_change_derived) != 0) {
      // A block's first bar is read without the one before: its change_pct is always kept.
      bar.change_pct = domain::derived_change_pct(bar.close, bar.factor, m_previous_close,
                                                  m_previous_factor);
      m_exact.change_pct = domain::BarTenThousandths::k_not_whole; // written as its double
    }
    m_previous_close = bar.close;
    m_previous_factor = bar.factor;
    return bar;
  }

  // Return the numbers of the bar next() returned last as whole 1/10000s.
  const domain::BarTenThousandths& exact() const { return m_exact; }

private:
  // Set the date of `bar` from `head` (and the varint after it when far), and its factor, read
  // after them when `head` says it changed.
  void read_date_and_factor(std::uint8_t head, domain::Bar& bar) {
    const std::uint8_t near_day = head & k_day_mask;
    m_day += near_day == k_far_day ? static_cast<std::int32_t>(varint()) : near_day;
    bar.trade_date = date_of(m_day);
    if ((head & k_factor_follows) != 0) {
      m_factor = raw_double();
      m_exact.factor =
        store::find_scaled(m_factor).value_or(domain::BarTenThousandths::k_not_whole);
    }
    bar.factor = m_factor;
  }

  // Read the control bytes and the integers they give the lengths of, in Slot order.
  std::array<std::int64_t, k_slots> read_integers() {
    // Without a branch: lengths first, then each read as eight bytes and masked. Read as four
    // bytes, as a three-byte copy would be assembled on the stack and read back (a stalled store
    // forwarding); the stream's padding makes reading past a bar safe.
    const std::uint8_t* at = m_at; // a local the bytes read cannot alias
    std::uint32_t control = 0;
    std::memcpy(&control, at, sizeof control); // little-endian, as encode() wrote it
    at += k_control_bytes;
    std::array<std::int64_t, k_slots> delta;
    for (int slot = 0; slot < k_slots; ++slot) {
      const auto code = (control >> (3 * slot)) & 7;
      std::uint64_t bits = 0;
      std::memcpy(&bits, at, sizeof bits);
      bits &= k_code_masks[code];
      at += k_code_bytes[code];
      delta[static_cast<std::size_t>(slot)] =
        static_cast<std::int64_t>(bits >> 1) ^ -static_cast<std::int64_t>(bits & 1);
    }
    m_at = at;
    return delta;
  }

  // Set the numbers of `bar` and exact() from the integers `delta` (those kept as doubles are
  // read after); `block_start` when the bar is its block's first.
  void set_numbers(const std::array<std::int64_t, k_slots>& delta,
                   bool block_start,
                   domain::Bar& bar) {
    // As encode(): open against close, high above the greater and low below the lesser; a number
    // kept as a double has delta 0, so its units are its base.
    const std::int64_t previous_close = block_start ? 0 : m_close;
    const std::int64_t close = m_close + delta[close_slot] * m_price_unit;
    m_close = close;
    const std::int64_t open = close + delta[open_slot] * m_price_unit;
    const std::int64_t high = std::max(open, close) + delta[high_slot] * m_price_unit;
    const std::int64_t low = std::min(open, close) - delta[low_slot] * m_price_unit;
    bar.volume = delta[volume_slot] * m_volume_unit;
    const std::int64_t turnover = expected_turnover(bar.volume, high, low, m_turnover_unit)
                                  + delta[turnover_slot] * m_turnover_unit;
    // The whole numbers' doubles are left to fill_whole(): a window's prices are mostly
    // adjusted, and its first block's bars before `from` never written. The close's is the
    // next bar's previous close.
    auto& exact = m_exact;
    exact.close = close;
    bar.close = store::from_scaled(close);
    exact.open = open;
    exact.high = high;
    exact.low = low;
    exact.turnover = turnover;
    exact.change_pct = expected_change_pct(close, previous_close, m_change_unit)
                       + delta[change_slot] * m_change_unit;
  }

  // Read the numbers of `bar` kept as doubles, those of `exceptions`, in the order of Field.
  void read_doubles(std::uint8_t exceptions, domain::Bar& bar) {
    auto& exact = m_exact;
    const std::pair<Field, std::pair<double*, std::int64_t*>> fields[] = {
        {Field::close, {&bar.close, &exact.close}},
        {Field::open, {&bar.open, &exact.open}},
        {Field::high, {&bar.high, &exact.high}},
        {Field::low, {&bar.low, &exact.low}},
        {Field::turnover, {&bar.turnover, &exact.turnover}},
        {Field::change_pct, {&bar.change_pct, &exact.change_pct}},
    };
    for (const auto& [field, number] : fields) {
      if ((exceptions & field) != 0) {
        *number.first = raw_double();
        *number.second = domain::BarTenThousandths::k_not_whole;
      }
    }
  }
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t byte = *m_at++;
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) {
        return value;
      }
    }
  }
  double raw_double() {
    std::array<std::uint8_t, sizeof(double)> bits;
    std::memcpy(bits.data(), m_at, bits.size());
    m_at += bits.size();
    return std::bit_cast<double>(bits);
  }

  const CompactBars& m_bars;
  std::size_t m_index;
  const std::uint8_t* m_at;
  std::int64_t m_price_unit, m_volume_unit, m_turnover_unit, m_change_unit;
  std::int32_t m_day = 0;
  std::int64_t m_close = 0; // units of the previous close in this block (its base if a double)
  double m_factor = 1;
  double m_previous_close = std::numeric_limits<double>::quiet_NaN(); // of the previous bar
  double m_previous_factor = 1;
  domain::BarTenThousandths m_exact;
};

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

std::size_t CompactBars::bytes() const {
  return sizeof(CompactBars) + m_blocks.capacity() * sizeof(Block) + m_stream.capacity();
}

void CompactBars::decode_range(domain::Date from,
                               domain::Date to,
                               std::vector<domain::Bar>& out,
                               std::vector<domain::BarTenThousandths>* exact) const {
  std::vector<domain::BarTenThousandths> own;
  auto& wholes = exact != nullptr ? *exact : own;
  const auto first_bar = out.size();
  const auto first_whole = wholes.size();
  decode_units(from, to, out, wholes);
  for (std::size_t i = 0; first_bar + i < out.size(); ++i) {
    fill_whole(out[first_bar + i], wholes[first_whole + i], true);
  }
}

void CompactBars::decode_units(domain::Date from,
                               domain::Date to,
                               std::vector<domain::Bar>& out,
                               std::vector<domain::BarTenThousandths>& exact) const {
  if (m_size == 0 || to < from) {
    return;
  }
  // The block holding `from`: the last one starting on or before it.
  const auto after = std::upper_bound(
      m_blocks.begin(), m_blocks.end(), day_number(from),
      [](std::int32_t day, const Block& block) { return day < block.first_day; });
  const auto first_block =
    after == m_blocks.begin() ? 0 : static_cast<std::size_t>(after - m_blocks.begin()) - 1;
  Decoder decoder(*this, first_block);
  while (decoder.more()) {
    const auto bar = decoder.next();
    if (to < bar.trade_date) {
      break;
    }
    if (!(bar.trade_date < from)) {
      out.push_back(bar);
      exact.push_back(decoder.exact());
    }
  }
}

std::size_t CompactBars::most_bars(domain::Date from, domain::Date to) const {
  return to < from ? 0
                   : std::min<std::size_t>(
                       m_size, static_cast<std::size_t>((to.days() - from.days()).count()) + 1);
}

ExactWindow CompactBars::read_window(std::string symbol,
                                     const BarQuery& query,
                                     double latest_factor) const {
  ExactWindow window;
  auto& bars = window.item.bars;
  auto& exact = window.exact;
  bars.reserve(most_bars(query.from, query.to)); // so that decoding never moves them
  exact.reserve(bars.capacity());
  decode_units(query.from, query.to, bars, exact);
  // As query::read_window(): D8's window of the ascending bars, sorted, then adjusted.
  const auto pick = pick_window(bars, query);
  const auto keep = [&pick, &query](auto& items) {
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(pick.end), items.end());
    items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(pick.first));
    if (query.sort == domain::SortOrder::desc) {
      std::reverse(items.begin(), items.end());
    }
  };
  keep(bars);
  keep(exact);
  if (query.adjusted) {
    adjust_forward(bars, exact, latest_factor); // the prices from their units
  }
  for (std::size_t i = 0; i < bars.size(); ++i) {
    fill_whole(bars[i], exact[i], !query.adjusted); // adjust_forward() set the adjusted prices
  }
  window.item.symbol = std::move(symbol);
  window.item.known = true;
  window.item.has_more = pick.has_more;
  if (query.include_summary) {
    window.item.summary = summarize(bars, query.from, query.to);
  }
  return window;
}

std::vector<domain::Bar> CompactBars::decode_all() const {
  std::vector<domain::Bar> out;
  out.reserve(m_size);
  if (m_size == 0) {
    return out;
  }
  Decoder decoder(*this, 0);
  while (decoder.more()) {
    out.push_back(decoder.next());
    fill_whole(out.back(), decoder.exact(), true);
  }
  return out;
}

} // namespace ashare::query
