// CompactBars' reading: the decoder of the stream (query/compact_bars_format.hpp), the ranges and
// windows read through it, and what it holds.
#include "core/query/compact_bars.hpp"

#include "core/query/adjustment.hpp"
#include "core/query/compact_bars_format.hpp"
#include "core/store/stored_number.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>

namespace ashare::query {
namespace {

using namespace compact_format;

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
