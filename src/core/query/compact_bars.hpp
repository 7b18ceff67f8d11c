// A symbol's ascending bars kept in memory in about a tenth of their size (issue 11, P5: a whole
// market's recent years warm in a few hundred MB), read back bit for bit (D12). Each bar is a
// head byte (its date as days since the previous bar, and flags), then seven integers, each as
// many bytes as its 3-bit length code in three control bytes says (read without a branch a
// byte): its close as the change from the previous close, open, high and low against its close,
// volume, turnover and change_pct, all in the history's largest common power-of-ten unit of
// 1/10000 (store/stored_number), the last two as differences from what the bar's other numbers
// lead to expect; its factor only when it changed, and its change_pct not at all when it is the
// one the store derives (domain::derived_change_pct). A number that is not a whole 1/10000 is
// kept as its double, after the integers.
// Blocks of k_block_bars bars start afresh, so a window is read from the block holding its first
// date on, without decoding what precedes it. The stream's layout is compact_bars_format.hpp;
// encode() is compact_bars_encode.cpp, the reading compact_bars.cpp.
#pragma once

#include "core/domain/bar.hpp"
#include "core/query/bar_query.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ashare::query {

class CompactBars {
public:
  static constexpr std::size_t k_block_bars = 64;

  CompactBars() = default;

  // Return `ascending` (ascending by date, distinct dates) encoded.
  static CompactBars encode(std::span<const domain::Bar> ascending);

  // Return the number of bars.
  std::size_t size() const { return m_size; }

  // Return the bytes allocated for the bars, this object included.
  std::size_t bytes() const;

  // Append to `out` the bars with trade_date in [from, to], ascending, and to `exact` (when not
  // null) their numbers as whole 1/10000s, one per bar.
  void decode_range(domain::Date from,
                    domain::Date to,
                    std::vector<domain::Bar>& out,
                    std::vector<domain::BarTenThousandths>* exact = nullptr) const;

  // Return the item of `symbol` that `query` asks, as query::read_window() over a store's
  // BarStore::load_bars returns it (adjusted to `latest_factor` when asked), with its bars' numbers as whole 1/10000s
  // beside them: a window written as JSON per request without a double's round trip (issue 11,
  // P5).
  ExactWindow read_window(std::string symbol, const BarQuery& query, double latest_factor) const;

  // Return every bar, ascending.
  std::vector<domain::Bar> decode_all() const;

private:
  // Append to `out` and `exact` what decode_range() does, but for the doubles of the numbers
  // `exact` holds (all but the close): read_window() adjusts the prices from their units.
  void decode_units(domain::Date from,
                    domain::Date to,
                    std::vector<domain::Bar>& out,
                    std::vector<domain::BarTenThousandths>& exact) const;

  // Return the most bars [from, to] can hold: at most one a day.
  std::size_t most_bars(domain::Date from, domain::Date to) const;

  struct Block {
    std::int32_t first_day = 0;  // days since 1970-01-01 of the block's first bar
    std::uint32_t offset = 0;    // where its first bar starts in m_stream
  };
  // The common unit of each kind of number, as a power of ten of 1/10000.
  struct Units {
    std::uint8_t price = 0;
    std::uint8_t volume = 0;
    std::uint8_t turnover = 0;
    std::uint8_t change_pct = 0;
  };
  class Decoder;

  std::vector<Block> m_blocks;
  std::vector<std::uint8_t> m_stream;
  std::size_t m_size = 0;
  Units m_units;
};

} // namespace ashare::query
