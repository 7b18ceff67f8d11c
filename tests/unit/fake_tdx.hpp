// An in-process TDX for the client's tests: bodies encoded as the recorded replies are (the
// encoder is checked against them), served per host with faults on demand.
#pragma once

#include "core/fetch/tdx/client.hpp"
#include "core/fetch/tdx/wire.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ashare::test {

// Append TDX's price varint of `value`.
inline void put_price(std::vector<std::uint8_t>& out, std::int64_t value) {
  const bool negative = value < 0;
  auto left = static_cast<std::uint64_t>(negative ? -value : value);
  std::uint8_t first = static_cast<std::uint8_t>(left & 0x3f) | (negative ? 0x40 : 0);
  left >>= 6;
  if (left != 0) {
    first |= 0x80;
  }
  out.push_back(first);
  while (left != 0) {
    auto next = static_cast<std::uint8_t>(left & 0x7f);
    left >>= 7;
    if (left != 0) {
      next |= 0x80;
    }
    out.push_back(next);
  }
}

inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
}

// Return the get_security_bars body of `bars` (oldest first), as a server writes it: an index's
// bars each followed by their up and down counts (D20, pytdx get_index_bars).
inline std::vector<std::uint8_t> encode_bars(const std::vector<fetch::tdx::RawBar>& bars,
                                             fetch::tdx::BarLayout layout = fetch::tdx::BarLayout::security) {
  std::vector<std::uint8_t> out{static_cast<std::uint8_t>(bars.size() & 0xff),
                                static_cast<std::uint8_t>(bars.size() >> 8)};
  std::int64_t base = 0;
  for (const auto& bar : bars) {
    put_u32(out, static_cast<std::uint32_t>(bar.day.yyyymmdd()));
    put_price(out, bar.open_mils - base);
    put_price(out, bar.close_mils - bar.open_mils);
    put_price(out, bar.high_mils - bar.open_mils);
    put_price(out, bar.low_mils - bar.open_mils);
    put_u32(out, std::bit_cast<std::uint32_t>(bar.volume));
    put_u32(out, std::bit_cast<std::uint32_t>(bar.amount));
    if (layout == fetch::tdx::BarLayout::index) {
      put_u32(out, static_cast<std::uint32_t>(bar.up_count) | (static_cast<std::uint32_t>(bar.down_count) << 16));
    }
    base = bar.close_mils;
  }
  return out;
}

// Return the get_security_list body of `codes`, as pytdx reads one (names and units left blank).
inline std::vector<std::uint8_t> encode_list(const std::vector<std::string>& codes) {
  std::vector<std::uint8_t> out{static_cast<std::uint8_t>(codes.size() & 0xff),
                                static_cast<std::uint8_t>(codes.size() >> 8)};
  for (const auto& code : codes) {
    out.insert(out.end(), code.begin(), code.end());
    out.resize(out.size() + 2 + 8 + 4 + 1, 0);
    put_u32(out, std::bit_cast<std::uint32_t>(10.0F));
    out.resize(out.size() + 4, 0);
  }
  return out;
}

// Return the get_xdxr_info body of `events` of `code` of `market` (9 bytes, a count, records).
inline std::vector<std::uint8_t> encode_events(fetch::tdx::Market market, const std::string& code,
                                               const std::vector<fetch::tdx::XdxrEvent>& events) {
  std::vector<std::uint8_t> out{0, 0, static_cast<std::uint8_t>(market)};
  out.insert(out.end(), code.begin(), code.end());
  out.push_back(static_cast<std::uint8_t>(events.size() & 0xff));
  out.push_back(static_cast<std::uint8_t>(events.size() >> 8));
  for (const auto& event : events) {
    out.push_back(static_cast<std::uint8_t>(market));
    out.insert(out.end(), code.begin(), code.end());
    out.push_back(0);
    put_u32(out, static_cast<std::uint32_t>(event.day.yyyymmdd()));
    out.push_back(event.category);
    for (const float value : {event.cash, event.rights_price, event.bonus, event.rights}) {
      put_u32(out, std::bit_cast<std::uint32_t>(value));
    }
  }
  return out;
}

// A TDX of several hosts, each serving the same bars unless told to fail.
class FakeTdx final : public fetch::tdx::Connector {
public:
  enum class Fault { none, refuses, times_out, truncates, answers_another, not_tdx };

  std::map<std::string, std::vector<fetch::tdx::RawBar>> bars; // by 6-digit code, oldest first
  std::map<std::string, std::vector<fetch::tdx::XdxrEvent>> events; // by 6-digit code
  std::map<int, std::vector<std::string>> listed;                    // codes by market
  std::map<std::string, Fault> faults;                         // by host
  std::vector<std::string> connects;                           // every host connected to
  std::vector<std::pair<std::string, std::uint16_t>> asked;    // (host, start) of each bars call
  std::vector<std::string> asked_codes;                        // the code of each first bars page
  std::set<std::string> failing_codes; // every host times out on these codes' bars
  std::set<std::string> index_codes;   // their bars come in an index's layout (D20)

  Result<std::unique_ptr<fetch::tdx::Channel>> connect(const std::string& host) override {
    connects.push_back(host);
    if (fault(host) == Fault::refuses) {
      return make_error(ErrorCode::service_unavailable, "connection refused");
    }
    if (fault(host) == Fault::not_tdx) { // as cli::TdxConnector says it
      return make_error(ErrorCode::invalid_input, host + " does not answer as a TDX server (its reply starts "
                                                         "\"HTTP/1.1 400 Bad\", not 0x0074cbb1)");
    }
    return std::unique_ptr<fetch::tdx::Channel>(new Channel(*this, host));
  }

private:
  Fault fault(const std::string& host) const {
    const auto it = faults.find(host);
    return it == faults.end() ? Fault::none : it->second;
  }

  class Channel final : public fetch::tdx::Channel {
  public:
    Channel(FakeTdx& tdx, std::string host) : m_tdx(tdx), m_host(std::move(host)) {}

    Result<fetch::tdx::Reply> exchange(std::span<const std::uint8_t> request) override {
      const auto fault = m_tdx.fault(m_host);
      if (fault == Fault::times_out) {
        return make_error(ErrorCode::service_unavailable, "timed out after 5 s");
      }
      fetch::tdx::Reply reply;
      reply.head.sequence = request[1] | (request[2] << 8) | (request[3] << 16)
                            | (static_cast<std::uint32_t>(request[4]) << 24);
      reply.head.method = static_cast<std::uint16_t>(request[10] | (request[11] << 8));
      if (fault == Fault::answers_another) {
        ++reply.head.sequence;
      }
      if (reply.head.method == static_cast<std::uint16_t>(fetch::tdx::Method::security_list)) {
        const auto& codes = m_tdx.listed[request[12]];
        const std::size_t first = static_cast<std::size_t>(request[14] | (request[15] << 8));
        const auto last = std::min(codes.size(), first + 1000);
        reply.body = encode_list(first < last ? std::vector<std::string>(codes.begin() + static_cast<std::ptrdiff_t>(first),
                                                                         codes.begin() + static_cast<std::ptrdiff_t>(last))
                                              : std::vector<std::string>{});
        return sized(reply, fault);
      }
      if (reply.head.method == static_cast<std::uint16_t>(fetch::tdx::Method::xdxr_info)) {
        const std::string code(request.begin() + 15, request.begin() + 21);
        reply.body = encode_events(static_cast<fetch::tdx::Market>(request[14]), code, m_tdx.events[code]);
        return sized(reply, fault);
      }
      const std::string code(request.begin() + 14, request.begin() + 20);
      if (m_tdx.failing_codes.count(code) != 0) {
        return make_error(ErrorCode::service_unavailable, "timed out after 5 s");
      }
      const std::uint16_t start = static_cast<std::uint16_t>(request[24] | (request[25] << 8));
      if (start == 0) {
        m_tdx.asked_codes.push_back(code);
      }
      const std::uint16_t count = static_cast<std::uint16_t>(request[26] | (request[27] << 8));
      m_tdx.asked.emplace_back(m_host, start);
      const auto& all = m_tdx.bars[code];
      // `count` bars ending `start` back from the newest, oldest first.
      const auto end = all.size() > start ? all.size() - start : 0;
      const auto begin = end > count ? end - count : 0;
      reply.body = encode_bars({all.begin() + static_cast<std::ptrdiff_t>(begin),
                                all.begin() + static_cast<std::ptrdiff_t>(end)},
                               m_tdx.index_codes.count(code) != 0 ? fetch::tdx::BarLayout::index
                                                                  : fetch::tdx::BarLayout::security);
      return sized(reply, fault);
    }

  private:
    static fetch::tdx::Reply sized(fetch::tdx::Reply& reply, Fault fault) {
      if (fault == Fault::truncates) {
        reply.body.resize(reply.body.size() / 2);
      }
      reply.head.zipped_size = reply.head.unzipped_size = static_cast<std::uint16_t>(reply.body.size());
      return std::move(reply);
    }

    FakeTdx& m_tdx;
    std::string m_host;
  };
};

} // namespace ashare::test
