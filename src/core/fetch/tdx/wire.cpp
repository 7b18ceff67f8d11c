#include "core/fetch/tdx/wire.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

namespace ashare::fetch::tdx {
namespace {

Error bad_reply(const std::string& what) {
  return make_error(ErrorCode::invalid_input, "the TDX reply is malformed: " + what);
}

// Reads little-endian values from a reply, each after checking that its bytes are there.
class Reader {
public:
  explicit Reader(std::span<const std::uint8_t> bytes) : m_bytes(bytes) {}

  std::size_t position() const { return m_at; }
  std::size_t left() const { return m_bytes.size() - m_at; }

  std::optional<std::uint8_t> u8() {
    if (left() < 1) {
      return std::nullopt;
    }
    return m_bytes[m_at++];
  }
  std::optional<std::uint16_t> u16() {
    if (left() < 2) {
      return std::nullopt;
    }
    const auto value = static_cast<std::uint16_t>(m_bytes[m_at] | (m_bytes[m_at + 1] << 8));
    m_at += 2;
    return value;
  }
  std::optional<std::uint32_t> u32() {
    if (left() < 4) {
      return std::nullopt;
    }
    std::uint32_t value = 0;
    for (int i = 3; i >= 0; --i) {
      value = (value << 8) | m_bytes[m_at + static_cast<std::size_t>(i)];
    }
    m_at += 4;
    return value;
  }
  std::optional<float> f32() {
    const auto bits = u32();
    if (!bits) {
      return std::nullopt;
    }
    return std::bit_cast<float>(*bits);
  }
  std::optional<std::string> text(std::size_t size) {
    if (left() < size) {
      return std::nullopt;
    }
    std::string out(reinterpret_cast<const char*>(m_bytes.data() + m_at), size);
    m_at += size;
    return out;
  }
  // A TDX price varint: the first byte holds 6 bits, the sign (0x40) and "more" (0x80); each
  // further byte 7 bits and "more". Five bytes hold 34 bits, more than any price in 1/1000 CNY.
  std::optional<std::int64_t> price() {
    const auto first = u8();
    if (!first) {
      return std::nullopt;
    }
    std::int64_t value = *first & 0x3f;
    const bool negative = (*first & 0x40) != 0;
    bool more = (*first & 0x80) != 0;
    for (int shift = 6, bytes = 1; more; shift += 7, ++bytes) {
      const auto next = u8();
      if (!next || bytes == 5) {
        return std::nullopt;
      }
      value |= static_cast<std::int64_t>(*next & 0x7f) << shift;
      more = (*next & 0x80) != 0;
    }
    return negative ? -value : value;
  }

private:
  std::span<const std::uint8_t> m_bytes;
  std::size_t m_at = 0;
};

void put_u16(std::vector<std::uint8_t>& out, std::uint16_t value) {
  out.push_back(static_cast<std::uint8_t>(value & 0xff));
  out.push_back(static_cast<std::uint8_t>(value >> 8));
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<std::uint8_t>((value >> (8 * i)) & 0xff));
  }
}

// A request: the 12-byte head, whose length counts the method's two bytes and the body.
std::vector<std::uint8_t> request(std::uint32_t sequence, Method method,
                                  const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> out{0x0c};
  put_u32(out, sequence);
  out.push_back(0x01);
  const auto length = static_cast<std::uint16_t>(body.size() + 2);
  put_u16(out, length);
  put_u16(out, length);
  put_u16(out, static_cast<std::uint16_t>(method));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

void put_code(std::vector<std::uint8_t>& out, std::string_view code) {
  for (std::size_t i = 0; i < 6; ++i) {
    out.push_back(static_cast<std::uint8_t>(i < code.size() ? code[i] : '0'));
  }
}

std::optional<domain::Date> day_of(std::uint32_t yyyymmdd) {
  return domain::Date::from_yyyymmdd(static_cast<int>(yyyymmdd));
}

} // namespace

Result<ReplyHead> parse_reply_head(std::span<const std::uint8_t> bytes) {
  Reader in(bytes.first(std::min(bytes.size(), k_reply_head_size)));
  const auto magic = in.u32();
  const auto flag = in.u8();
  const auto sequence = in.u32();
  const auto reserved = in.u8();
  const auto method = in.u16();
  const auto zipped = in.u16();
  const auto unzipped = in.u16();
  (void)reserved;
  if (!unzipped) {
    return bad_reply("a head of " + std::to_string(bytes.size()) + " bytes (16 expected)");
  }
  if (*magic != k_reply_magic) {
    return bad_reply("no 0x0074cbb1 at its start");
  }
  if (*flag != 0x0c && *flag != 0x1c) {
    return bad_reply("flag " + std::to_string(*flag) + " (0x0c plain or 0x1c zlib expected)");
  }
  const bool zlib = *flag == 0x1c;
  if (!zlib && *zipped != *unzipped) {
    return bad_reply("a plain body whose sizes differ (" + std::to_string(*zipped) + " and "
                     + std::to_string(*unzipped) + ")");
  }
  return ReplyHead{zlib, *sequence, *method, *zipped, *unzipped};
}

std::optional<std::string> not_tdx_reply(std::span<const std::uint8_t> bytes) {
  const auto head = bytes.first(std::min(bytes.size(), k_reply_head_size));
  if (Reader(head).u32() == k_reply_magic) {
    return std::nullopt;
  }
  // Text (an HTTP server's "HTTP/1.1 400 Bad Request") as text, anything else as bytes.
  const bool text = !head.empty() && std::all_of(head.begin(), head.end(), [](std::uint8_t byte) {
    return (byte >= 0x20 && byte < 0x7f) || byte == '\r' || byte == '\n';
  });
  std::string shown;
  for (const auto byte : head) {
    if (!text) {
      constexpr const char* k_hex = "0123456789abcdef";
      shown += std::string(shown.empty() ? "" : " ") + k_hex[byte >> 4] + k_hex[byte & 0xf];
    } else {
      shown += byte == '\r' ? std::string("\\r") : byte == '\n' ? std::string("\\n") : std::string(1, static_cast<char>(byte));
    }
  }
  return "its reply starts " + (text ? "\"" + shown + "\"" : shown) + ", not 0x0074cbb1";
}

std::vector<std::vector<std::uint8_t>> setup_requests() {
  // shared/data/real/protocols/tdx_7709/request_packets.txt (pytdx and rustdx send these bytes).
  return {
      {0x0c, 0x02, 0x18, 0x93, 0x00, 0x01, 0x03, 0x00, 0x03, 0x00, 0x0d, 0x00, 0x01},
      {0x0c, 0x02, 0x18, 0x94, 0x00, 0x01, 0x03, 0x00, 0x03, 0x00, 0x0d, 0x00, 0x02},
      {0x0c, 0x03, 0x18, 0x99, 0x00, 0x01, 0x20, 0x00, 0x20, 0x00, 0xdb, 0x0f, 0xd5,
       0xd0, 0xc9, 0xcc, 0xd6, 0xa4, 0xa8, 0xaf, 0x00, 0x00, 0x00, 0x8f, 0xc2, 0x25,
       0x40, 0x13, 0x00, 0x00, 0xd5, 0x00, 0xc9, 0xcc, 0xbd, 0xf0, 0xd7, 0xea, 0x00,
       0x00, 0x00, 0x02},
  };
}

std::vector<std::uint8_t> security_bars_request(std::uint32_t sequence,
                                                Market market,
                                                std::string_view code,
                                                std::uint16_t category,
                                                std::uint16_t start,
                                                std::uint16_t count) {
  std::vector<std::uint8_t> body;
  put_u16(body, static_cast<std::uint16_t>(market));
  put_code(body, code);
  put_u16(body, category);
  put_u16(body, 1);
  put_u16(body, start);
  put_u16(body, count);
  body.insert(body.end(), 10, 0); // as recorded
  return request(sequence, Method::security_bars, body);
}

std::vector<std::uint8_t> xdxr_request(std::uint32_t sequence, Market market, std::string_view code) {
  std::vector<std::uint8_t> body;
  put_u16(body, 1); // one code
  body.push_back(static_cast<std::uint8_t>(market));
  put_code(body, code);
  return request(sequence, Method::xdxr_info, body);
}

std::vector<std::uint8_t> security_count_request(std::uint32_t sequence, Market market) {
  std::vector<std::uint8_t> body;
  put_u16(body, static_cast<std::uint16_t>(market));
  body.insert(body.end(), {0x75, 0xc7, 0x33, 0x01}); // as pytdx sends it
  return request(sequence, Method::security_count, body);
}

Result<std::uint16_t> parse_security_count(std::span<const std::uint8_t> body) {
  Reader in(body);
  const auto count = in.u16();
  if (!count || in.left() != 0) {
    return bad_reply("a count body of " + std::to_string(body.size()) + " bytes (2 expected)");
  }
  return *count;
}

std::vector<std::uint8_t> security_list_request(std::uint32_t sequence, Market market,
                                                std::uint16_t start) {
  std::vector<std::uint8_t> body;
  put_u16(body, static_cast<std::uint16_t>(market));
  put_u16(body, start);
  return request(sequence, Method::security_list, body);
}

Result<std::vector<ListedCode>> parse_security_list(std::span<const std::uint8_t> body) {
  constexpr std::size_t k_entry = 29;
  Reader in(body);
  const auto count = in.u16();
  if (!count) {
    return bad_reply("a list body of " + std::to_string(body.size()) + " bytes, without its count");
  }
  if (in.left() != std::size_t{*count} * k_entry) {
    return bad_reply("a list of " + std::to_string(*count) + " codes in " + std::to_string(in.left())
                     + " bytes");
  }
  std::vector<ListedCode> codes;
  codes.reserve(*count);
  for (std::uint16_t i = 0; i < *count; ++i) {
    auto code = in.text(6);
    const auto skipped = in.text(2 + 8 + 4 + 1); // volume unit, name, 4 bytes, decimal point
    const auto pre_close = in.f32();
    const auto rest = in.text(4);
    if (!code || !skipped || !pre_close || !rest) {
      return bad_reply("list entry " + std::to_string(i + 1) + " runs past the body");
    }
    codes.push_back({std::move(*code), *pre_close});
  }
  return codes;
}

bool is_a_share(Market market, std::string_view code) {
  if (code.size() != 6
      || !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  const auto starts = [&](std::initializer_list<std::string_view> prefixes) {
    return std::any_of(prefixes.begin(), prefixes.end(),
                       [&](std::string_view prefix) { return code.substr(0, prefix.size()) == prefix; });
  };
  switch (market) {
  case Market::sh:
    return starts({"600", "601", "603", "605", "688", "689"});
  case Market::sz:
    return starts({"000", "001", "002", "003", "300", "301"});
  case Market::bj:
    return starts({"43", "83", "87", "920"});
  }
  return false;
}

Result<std::vector<RawBar>> parse_security_bars(std::span<const std::uint8_t> body, BarLayout layout) {
  Reader in(body);
  const auto count = in.u16();
  if (!count) {
    return bad_reply("a bars body of " + std::to_string(body.size()) + " bytes, without its count");
  }
  std::vector<RawBar> bars;
  bars.reserve(*count);
  std::int64_t base = 0; // the previous bar's close
  for (std::uint16_t i = 0; i < *count; ++i) {
    const auto at = in.position();
    const auto date = in.u32();
    const auto open = in.price();
    const auto close = in.price();
    const auto high = in.price();
    const auto low = in.price();
    const auto volume = in.f32();
    const auto amount = in.f32();
    const auto up = layout == BarLayout::index ? in.u16() : std::optional<std::uint16_t>(0);
    const auto down = layout == BarLayout::index ? in.u16() : std::optional<std::uint16_t>(0);
    if (!amount || !down) {
      return bad_reply("bar " + std::to_string(i + 1) + " of " + std::to_string(*count)
                       + " runs past the body's " + std::to_string(body.size()) + " bytes (at byte "
                       + std::to_string(at) + ")");
    }
    if (!open || !close || !high || !low) {
      return bad_reply("bar " + std::to_string(i + 1) + " has a price of more than five bytes");
    }
    const auto day = day_of(*date);
    if (!day) {
      return bad_reply("bar " + std::to_string(i + 1) + " has no date (" + std::to_string(*date) + ")");
    }
    RawBar bar;
    bar.day = *day;
    bar.open_mils = base + *open;
    bar.close_mils = bar.open_mils + *close;
    bar.high_mils = bar.open_mils + *high;
    bar.low_mils = bar.open_mils + *low;
    bar.volume = *volume;
    bar.amount = *amount;
    bar.up_count = *up;
    bar.down_count = *down;
    base = bar.close_mils;
    bars.push_back(bar);
  }
  if (in.left() != 0) {
    return bad_reply(std::to_string(in.left()) + " bytes after its " + std::to_string(*count) + " bars");
  }
  return bars;
}

Result<XdxrEvent> parse_xdxr_record(std::span<const std::uint8_t> record) {
  Reader in(record);
  const auto market = in.u8();
  auto code = in.text(6);
  const auto pad = in.u8();
  const auto date = in.u32();
  const auto category = in.u8();
  const auto cash = in.f32();
  const auto rights_price = in.f32();
  const auto bonus = in.f32();
  const auto rights = in.f32();
  if (!rights) {
    return bad_reply("an ex-rights record of " + std::to_string(record.size()) + " bytes (29 expected)");
  }
  if (*market > 2) {
    return bad_reply("an ex-rights record of market " + std::to_string(*market));
  }
  const auto day = day_of(*date);
  if (!day) {
    return bad_reply("an ex-rights record without a date (" + std::to_string(*date) + ")");
  }
  (void)pad;
  return XdxrEvent{static_cast<Market>(*market), std::move(*code), *day, *category, *cash,
                   *rights_price, *bonus, *rights};
}

Result<std::vector<XdxrEvent>> parse_xdxr_info(std::span<const std::uint8_t> body) {
  constexpr std::size_t k_record = 29;
  Reader in(body);
  const auto asked = in.text(9);
  const auto count = in.u16();
  if (!count) {
    return bad_reply("an ex-rights body of " + std::to_string(body.size()) + " bytes, without its count");
  }
  (void)asked;
  if (in.left() != std::size_t{*count} * k_record) {
    return bad_reply("an ex-rights body of " + std::to_string(*count) + " records in "
                     + std::to_string(in.left()) + " bytes");
  }
  std::vector<XdxrEvent> events;
  for (std::size_t i = 0; i < *count; ++i) {
    auto event = parse_xdxr_record(body.subspan(11 + i * k_record, k_record));
    if (!event) {
      return event.error();
    }
    events.push_back(std::move(*event));
  }
  return events;
}

} // namespace ashare::fetch::tdx
