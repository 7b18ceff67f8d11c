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

void put_signed(std::vector<std::uint8_t>& out, std::int64_t value) {
  // Zigzag: small magnitudes of either sign take few bytes.
  put_varint(out, (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
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

// Return the turnover expected of `bar` (1/10000 units, a multiple of `unit`): its volume at the
// middle of its range. A turnover is kept as its difference from this, about a byte shorter on
// real data.
std::int64_t expected_turnover(const domain::Bar& bar, std::int64_t unit) {
  return nearest_multiple(static_cast<double>(bar.volume) * (bar.high + bar.low) * 5000, unit);
}

// Return the change_pct expected of a bar closing at `close` after one closing at
// `previous_close` (NaN for none: 0) in 1/10000 units, a multiple of `unit`: the close's change,
// rounded as vendors round it. It matches 99.4% of Tushare's pct_chg (tushare_daily_jenny in
// ../shared/data/real): one byte where three were kept.
std::int64_t expected_change_pct(double close, double previous_close, std::int64_t unit) {
  return nearest_multiple((close / previous_close - 1) * 1e6, unit);
}

constexpr double k_no_close = std::numeric_limits<double>::quiet_NaN();

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

  // Return the next bar. Requires more(). exact() then holds its numbers as whole 1/10000s.
  domain::Bar next() {
    if (m_index % k_block_bars == 0) {
      m_day = m_bars.m_blocks[m_index / k_block_bars].first_day;
      m_close = 0;
    }
    ++m_index;
    const std::uint8_t head = *m_at++;
    const std::uint8_t near_day = head & k_day_mask;
    m_day += near_day == k_far_day ? static_cast<std::int32_t>(varint()) : near_day;
    domain::Bar bar;
    bar.trade_date = date_of(m_day);
    if ((head & k_factor_follows) != 0) {
      m_factor = raw_double();
      m_exact.factor =
        store::find_scaled(m_factor).value_or(domain::BarTenThousandths::k_not_whole);
    }
    bar.factor = m_factor;
    const std::uint8_t exceptions = (head & k_exceptions_follow) != 0 ? *m_at++ : 0;
    // As encode(): open against close, high above the greater and low below the lesser.
    auto& exact = m_exact;
    const std::int64_t close =
      number(exceptions, Field::close, bar.close, exact.close, m_close, m_price_unit);
    m_close = close;
    const std::int64_t open =
      number(exceptions, Field::open, bar.open, exact.open, close, m_price_unit);
    number(exceptions, Field::high, bar.high, exact.high, std::max(open, close), m_price_unit);
    number(exceptions, Field::low, bar.low, exact.low, std::min(open, close), -m_price_unit);
    bar.volume = signed_varint() * m_volume_unit;
    number(exceptions, Field::turnover, bar.turnover, exact.turnover,
           expected_turnover(bar, m_turnover_unit), m_turnover_unit);
    if (m_index % k_block_bars == 1) {
      m_previous_close = k_no_close; // a block's first bar is read without the one before
    }
    if ((head & k_change_derived) != 0) {
      bar.change_pct = domain::derived_change_pct(bar.close, bar.factor, m_previous_close,
                                                  m_previous_factor);
      exact.change_pct = domain::BarTenThousandths::k_not_whole; // written as its double
    } else {
      number(exceptions, Field::change_pct, bar.change_pct, exact.change_pct,
             expected_change_pct(bar.close, m_previous_close, m_change_unit), m_change_unit);
    }
    m_previous_close = bar.close;
    m_previous_factor = bar.factor;
    return bar;
  }

  // Return the numbers of the bar next() returned last as whole 1/10000s.
  const domain::BarTenThousandths& exact() const { return m_exact; }

private:
  // Read `field` into `value` and `whole`: a double (not whole) when `exceptions` has it, else
  // `base` plus a signed varint times `unit`. Return its units: `base` for a double.
  std::int64_t number(std::uint8_t exceptions,
                      Field field,
                      double& value,
                      std::int64_t& whole,
                      std::int64_t base,
                      std::int64_t unit) {
    if ((exceptions & field) != 0) {
      value = raw_double();
      whole = domain::BarTenThousandths::k_not_whole;
      return base;
    }
    const std::int64_t units = base + signed_varint() * unit;
    value = store::from_scaled(units);
    whole = units;
    return units;
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
  std::int64_t signed_varint() {
    const std::uint64_t zigzag = varint();
    return static_cast<std::int64_t>(zigzag >> 1) ^ -static_cast<std::int64_t>(zigzag & 1);
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
  std::int64_t m_close = 0; // units of the previous whole close in this block
  double m_factor = 1;
  double m_previous_close = k_no_close; // of the previous bar in this block
  double m_previous_factor = 1;
  domain::BarTenThousandths m_exact;
};

CompactBars CompactBars::encode(std::span<const domain::Bar> ascending) {
  CompactBars out;
  out.m_size = ascending.size();
  // The units: the largest power of ten dividing every whole value of its kind.
  std::vector<ScaledBar> scaled;
  scaled.reserve(ascending.size());
  int price = 4, volume = k_max_power, turnover = k_max_power, change_pct = 4;
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    // A block's first bar is read without the bar before it: its change_pct is always kept.
    const auto& s = scaled.emplace_back(
      scale(ascending[i], i % k_block_bars == 0 ? nullptr : &ascending[i - 1]));
    volume = common_power(ascending[i].volume, volume);
    for (const auto& value : {s.close, s.open, s.high, s.low}) {
      price = value ? common_power(*value, price) : price;
    }
    turnover = s.turnover ? common_power(*s.turnover, turnover) : turnover;
    change_pct = s.change_pct ? common_power(*s.change_pct, change_pct) : change_pct;
  }
  out.m_units = Units{static_cast<std::uint8_t>(price), static_cast<std::uint8_t>(volume),
                      static_cast<std::uint8_t>(turnover), static_cast<std::uint8_t>(change_pct)};
  const std::int64_t price_unit = k_pow10[out.m_units.price];

  auto& stream = out.m_stream;
  stream.reserve(ascending.size() * 24);
  // Write `value` (units, or nullopt: `raw`) as `base` plus a multiple of `unit`; return its
  // units, `base` for a double.
  const auto put_number = [&stream](const std::optional<std::int64_t>& value, double raw,
                                    std::int64_t base, std::int64_t unit) {
    if (!value) {
      put_double(stream, raw);
      return base;
    }
    put_signed(stream, (*value - base) / unit);
    return *value;
  };
  std::int32_t day = 0;
  std::int64_t last_close = 0;
  double factor = 1;
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    const auto& bar = ascending[i];
    const auto& s = scaled[i];
    const bool block_start = i % k_block_bars == 0;
    const domain::Bar* previous = block_start ? nullptr : &ascending[i - 1];
    if (block_start) {
      day = day_number(bar.trade_date);
      last_close = 0;
      out.m_blocks.push_back(Block{day, static_cast<std::uint32_t>(stream.size())});
    }
    const std::int32_t distance = day_number(bar.trade_date) - day;
    assert(distance >= 0 && (distance > 0 || block_start)); // ascending, distinct dates
    day += distance;
    const bool factor_follows = block_start || !same_bits(bar.factor, factor);
    const std::uint8_t exceptions = s.exceptions();
    stream.push_back(static_cast<std::uint8_t>(
        (distance < k_far_day ? distance : k_far_day) | (factor_follows ? k_factor_follows : 0)
        | (exceptions != 0 ? k_exceptions_follow : 0) | (s.change_derived ? k_change_derived : 0)));
    if (distance >= k_far_day) {
      put_varint(stream, static_cast<std::uint64_t>(distance));
    }
    if (factor_follows) {
      factor = bar.factor;
      put_double(stream, factor);
    }
    if (exceptions != 0) {
      stream.push_back(exceptions);
    }
    const std::int64_t close = put_number(s.close, bar.close, last_close, price_unit);
    last_close = close;
    const std::int64_t open = put_number(s.open, bar.open, close, price_unit);
    put_number(s.high, bar.high, std::max(open, close), price_unit);
    put_number(s.low, bar.low, std::min(open, close), -price_unit);
    put_signed(stream, bar.volume / k_pow10[out.m_units.volume]);
    const std::int64_t turnover_unit = k_pow10[out.m_units.turnover];
    put_number(s.turnover, bar.turnover, expected_turnover(bar, turnover_unit), turnover_unit);
    if (!s.change_derived) {
      const std::int64_t change_unit = k_pow10[out.m_units.change_pct];
      put_number(s.change_pct, bar.change_pct,
                 expected_change_pct(bar.close, previous ? previous->close : k_no_close,
                                     change_unit),
                 change_unit);
    }
  }
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
      if (exact != nullptr) {
        exact->push_back(decoder.exact());
      }
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
  decode_range(query.from, query.to, bars, &exact);
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
    for (std::size_t i = 0; i < bars.size(); ++i) {
      adjust_forward(bars[i], exact[i], latest_factor);
    }
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
  }
  return out;
}

} // namespace ashare::query
