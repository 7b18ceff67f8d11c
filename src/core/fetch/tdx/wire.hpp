// The TDX quote servers' protocol on port 7709 (D18), as the recorded real replies show it
// (shared/data/real/protocols/tdx_7709, SOURCES.md). A request is a 12-byte head (0x0c, a
// sequence, the length twice, the method) and a body; a reply is a 16-byte head (0x0074cbb1,
// flag 0x0c plain or 0x1c zlib, the request's sequence, the method, the zipped and unzipped
// sizes) and a body, inflated by the transport (zlib stays out of the core). Prices are varints in
// 1/1000 CNY (a bar's open from the previous bar's close, close/high/low from its own open);
// volume and amount little-endian float32. Every reader checks each length against the bytes it
// has before reading: a reply that would read past its end is an INVALID_INPUT error, never a read.
#pragma once

#include "core/domain/date.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::fetch::tdx {

inline constexpr std::uint32_t k_reply_magic = 0x0074cbb1;
inline constexpr std::size_t k_reply_head_size = 16;

// The methods ashare calls.
enum class Method : std::uint16_t {
  security_count = 0x044e, // get_security_count: how many codes a market lists
  security_list = 0x0450,  // get_security_list: a market's codes, a page at a time
  security_bars = 0x052d,  // get_security_bars: a code's bars, newest first in pages
  xdxr_info = 0x000f,      // get_xdxr_info: a code's ex-rights events
};

// D18: the TDX market of a code, from its D1 suffix.
enum class Market : std::uint8_t { sz = 0, sh = 1, bj = 2 };

// Bar categories (D18: 4 gives volume in shares, 9 in whole lots; ashare asks for 4).
inline constexpr std::uint16_t k_daily_in_shares = 4;
// The most bars one get_security_bars call returns.
inline constexpr std::uint16_t k_max_bars_per_call = 800;

struct ReplyHead {
  bool zlib = false; // flag 0x1c: the body is zlib-compressed
  std::uint32_t sequence = 0;
  std::uint16_t method = 0;
  std::uint16_t zipped_size = 0;   // the body's bytes on the wire
  std::uint16_t unzipped_size = 0; // once inflated (equal when plain)
};

// Parse the first 16 bytes of `bytes` as a reply head. Fewer bytes, another magic or flag, or a
// plain body whose two sizes differ, is an INVALID_INPUT error.
Result<ReplyHead> parse_reply_head(std::span<const std::uint8_t> bytes);

// Return why the first reply head `bytes` of a host shows that the host is no TDX server: its
// first bytes, as text when they are printable (`its reply starts "HTTP/1.1 400 Bad", not
// 0x0074cbb1`) or in hex; nullopt when they start with that magic.
std::optional<std::string> not_tdx_reply(std::span<const std::uint8_t> bytes);

// Return the three set-up packets a connection sends first, in order (as recorded).
std::vector<std::vector<std::uint8_t>> setup_requests();

// Return a get_security_bars request for `code` (6 digits) of `market`: `count` bars of
// `category` from `start` bars back from the newest.
std::vector<std::uint8_t> security_bars_request(std::uint32_t sequence,
                                                Market market,
                                                std::string_view code,
                                                std::uint16_t category,
                                                std::uint16_t start,
                                                std::uint16_t count);

// Return a get_xdxr_info request for `code` of `market`.
std::vector<std::uint8_t> xdxr_request(std::uint32_t sequence, Market market, std::string_view code);

// Return a get_security_count request for `market`.
std::vector<std::uint8_t> security_count_request(std::uint32_t sequence, Market market);

// Parse a get_security_count body (a u16).
Result<std::uint16_t> parse_security_count(std::span<const std::uint8_t> body);

// Return a get_security_list request: the codes of `market` from the `start`th on.
std::vector<std::uint8_t> security_list_request(std::uint32_t sequence, Market market,
                                                std::uint16_t start);

// A code a market lists (the name, in GBK, is left out: listings come from Tushare, D19).
struct ListedCode {
  std::string code; // 6 digits as sent
  float pre_close = 0;
};

// Parse a get_security_list body: u16 count, then 29-byte entries (6-byte code, u16 volume unit,
// 8-byte name, 4 bytes, u8 decimal point, float32 previous close, 4 bytes). No reply was recorded:
// this layout is pytdx's reading of it (said here and in the stand-in).
Result<std::vector<ListedCode>> parse_security_list(std::span<const std::uint8_t> body);

// Return whether `code` of `market` is an A-share (D18: indices, funds, bonds and B shares are
// skipped): Shanghai 600, 601, 603, 605, 688, 689; Shenzhen 000, 001, 002, 003, 300, 301;
// Beijing 43, 83, 87, 920.
bool is_a_share(Market market, std::string_view code);

// A daily bar as a reply gives it: prices in whole 1/1000 CNY whatever the kind (D20: the
// security list's decimal point is never applied again), volume and amount as float32.
struct RawBar {
  domain::Date day;
  std::int64_t open_mils = 0;
  std::int64_t high_mils = 0;
  std::int64_t low_mils = 0;
  std::int64_t close_mils = 0;
  float volume = 0; // a stock's or fund's in shares in category 4 (lots in 9); an index's in lots
  float amount = 0; // CNY
  std::uint16_t up_count = 0;   // an index's: its members up that day (not stored)
  std::uint16_t down_count = 0; // an index's: its members down

  bool operator==(const RawBar&) const = default;
};

// How a get_security_bars reply lays its bars out. An index's bars are asked exactly as a
// stock's (0x052d, category 4), but each carries 4 more bytes (D20; pytdx get_index_bars): a
// stock's reader misaligns every bar after an index's first, so the asker must say which.
enum class BarLayout {
  security, // a stock's or a fund's: date, four prices, volume, amount
  index,    // the same, then u16 up_count and u16 down_count
};

// Parse a get_security_bars body of a daily category laid out as `layout` (u16 count, then per
// bar a u32 YYYYMMDD, four price varints, volume and amount, and an index's two counts), oldest
// first as sent. A count or varint that runs past the body, trailing bytes, or a date that is not
// one is an INVALID_INPUT error.
Result<std::vector<RawBar>> parse_security_bars(std::span<const std::uint8_t> body,
                                                BarLayout layout = BarLayout::security);

// The ex-rights categories ashare reads (D18, D20); the others (share counts, warrants) change
// no price.
inline constexpr std::uint8_t k_dividends_and_rights = 1; // 除权除息
inline constexpr std::uint8_t k_unit_split = 11;          // 扩缩股: a fund's units split or merged

// An ex-rights event (get_xdxr_info); for category 1 (dividends and rights) the four numbers are,
// per 10 shares: cash dividend (CNY), rights issue price (CNY), bonus shares, rights shares. For
// category 11 the third (`bonus`'s place) is the new units per old unit (pytdx's `suogu`; no
// such record was recorded: pytdx's reading, D20), the others unused.
struct XdxrEvent {
  Market market = Market::sz;
  std::string code;
  domain::Date day;
  std::uint8_t category = 0;
  float cash = 0;
  float rights_price = 0;
  float bonus = 0;
  float rights = 0;

  // Return the new units per old unit of a category-11 event.
  float split_ratio() const { return bonus; }
};

// Parse one 29-byte get_xdxr_info record (u8 market, 6-byte code, a byte, u32 YYYYMMDD, u8
// category, four float32).
Result<XdxrEvent> parse_xdxr_record(std::span<const std::uint8_t> record);

// Parse a get_xdxr_info body: 9 bytes (the code asked for), u16 count, then 29-byte records.
// No whole reply was recorded: this layout is pytdx's and rustdx's reading of it (the record
// itself is recorded).
Result<std::vector<XdxrEvent>> parse_xdxr_info(std::span<const std::uint8_t> body);

} // namespace ashare::fetch::tdx
