// tdx_standin: a stand-in TDX quote server (the port-7709 protocol, D18) on 127.0.0.1, for
// ashare's tests of `fetch tdx` (issue 33). It serves the real daily rows of tests/data/tdx_standin
// (Tushare's, encoded as a TDX server encodes them: prices as varints in 1/1000 CNY, category 4's
// volume in shares and 9's in lots, the amount in CNY, both float32), 600519.SH's real ex-rights
// events, and a security list of those codes with an index among them. Since D20 (issue 44) also
// an index, 000300.SH (Tushare's real index_daily rows; volume in lots and each bar followed by
// u16 up_count, u16 down_count as pytdx's get_index_bars reads an index reply: not a recording,
// and the counts are made up), a fund, 510300.SH (decimal point 3; the bars of TDX's real raw
// export, its real dividends as category-1 events), and a made-up fund, 169999.SZ, whose units
// split 1:3 (a category-11 event as pytdx reads one: not a recording either). Bodies over
// --zlib-over bytes go zlib-compressed (flag 0x1c), as real servers send large ones. It
// misbehaves on request (--fault). It links no project library: it stands for the outside world,
// so its encoding is its own (checked against the recorded replies by
// tests/unit/test_cli_fetch_tdx_standin.cpp). tests/data/tdx_standin/README.md says what is real.
// Usage: tdx_standin [--port N] [--data DIR] [--zlib-over N] [--fault KIND[:CODE]]...
//   KIND: truncate (half a bars body, then close), lie (a bars count past the bars sent),
//   garbage (the newest bar's volume 5.9e-39), hang (no answer; prints "hanging CODE" on stdout
//   when a call reaches it), per CODE or every code.
#include "support/build_paths.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Bar {
  std::uint32_t date = 0; // YYYYMMDD
  std::int64_t open = 0, high = 0, low = 0, close = 0; // 1/1000 CNY
  double shares = 0;
  double cny = 0;
};

struct Event {
  std::uint32_t date = 0;
  std::uint8_t category = 1;
  float cash = 0, rights_price = 0, bonus = 0, rights = 0;
};

struct Security {
  std::uint8_t market = 0; // 0 SZ, 1 SH, 2 BJ
  std::string code;
  std::vector<Bar> bars; // oldest first
  std::vector<Event> events;
  bool index = false;             // its bars carry 4 more bytes, its volume goes in lots
  std::uint8_t decimal_point = 2; // in the security list: 3 for a fund
};

struct Options {
  int port = 0;
  std::string data_dir =
      (std::filesystem::path(ashare::test::source_dir()) / "tests/data/tdx_standin").string();
  std::size_t zlib_over = 1024;
  std::map<std::string, std::string> faults; // code ("" for every code) -> kind
};

std::vector<std::string> split(const std::string& line, char separator = ',') {
  std::vector<std::string> cells;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, separator);) {
    cells.push_back(cell);
  }
  return cells;
}

std::int64_t mils(const std::string& price) { return std::llround(std::stod(price) * 1000); }

// Read Tushare daily rows (ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,
// amount: vol in lots of 100 shares, amount in thousands of CNY), newest first as Tushare sends.
std::vector<Bar> read_bars(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<Bar> bars;
  while (std::getline(in, line)) {
    const auto cells = split(line);
    if (cells.size() < 11) {
      continue;
    }
    bars.push_back({static_cast<std::uint32_t>(std::stoul(cells[1])), mils(cells[2]), mils(cells[3]),
                    mils(cells[4]), mils(cells[5]), std::stod(cells[9]) * 100, std::stod(cells[10]) * 1000});
  }
  std::sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.date < b.date; });
  return bars;
}

// Read Tushare index_daily rows (ts_code,trade_date,close,open,high,low,pre_close,change,pct_chg,
// vol,amount: trade_date YYYY-MM-DD, prices to 4 decimals, vol in lots, amount in thousands of
// CNY), ascending. Prices go to the nearest 1/1000 CNY, as a TDX server has them; the volume is
// kept in shares here (lots x 100) and sent in lots.
std::vector<Bar> read_index_bars(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<Bar> bars;
  while (std::getline(in, line)) {
    const auto cells = split(line);
    if (cells.size() < 11) {
      continue;
    }
    auto day = cells[1];
    day.erase(std::remove(day.begin(), day.end(), '-'), day.end());
    bars.push_back({static_cast<std::uint32_t>(std::stoul(day)), mils(cells[3]), mils(cells[4]), mils(cells[5]),
                    mils(cells[2]), std::stod(cells[9]) * 100, std::stod(cells[10]) * 1000});
  }
  return bars;
}

// Read a TDX desktop export (通达信 数据导出: a title line, a header line, rows
// YYYY/MM/DD,open,high,low,close,volume,amount with volume in shares and amount in CNY, a last
// line 数据来源:通达信; GBK, CRLF): the rows only, which are ASCII.
std::vector<Bar> read_tdx_export(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<Bar> bars;
  for (std::string line; std::getline(in, line);) {
    auto cells = split(line);
    if (cells.size() != 7 || cells[0].size() != 10 || cells[0][4] != '/') {
      continue; // the title, the header and the source line
    }
    cells[0].erase(std::remove(cells[0].begin(), cells[0].end(), '/'), cells[0].end());
    bars.push_back({static_cast<std::uint32_t>(std::stoul(cells[0])), mils(cells[1]), mils(cells[2]),
                    mils(cells[3]), mils(cells[4]), std::stod(cells[5]), std::stod(cells[6])});
  }
  return bars;
}

// Return the made-up fund 169999.SZ: 510300.SH's bars of 2023-01-17 .. 2023-12-29 (between two of
// its dividends), with three times the price and a third of the units (rounded) before
// 2023-06-15, when a category-11 event splits each unit into 3.
Security made_up_split_fund(const std::vector<Bar>& source) {
  constexpr std::uint32_t k_split_day = 20230615;
  Security fund{0, "169999", {}, {{k_split_day, 11, 0.0f, 0.0f, 3.0f, 0.0f}}, false, 3};
  for (auto bar : source) {
    if (bar.date < 20230117 || bar.date > 20231229) {
      continue;
    }
    if (bar.date < k_split_day) {
      bar.open *= 3;
      bar.high *= 3;
      bar.low *= 3;
      bar.close *= 3;
      bar.shares = std::round(bar.shares / 3);
    }
    fund.bars.push_back(bar);
  }
  return fund;
}

std::vector<Event> read_events(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<Event> events;
  while (std::getline(in, line)) {
    const auto cells = split(line);
    if (cells.size() == 6) {
      events.push_back({static_cast<std::uint32_t>(std::stoul(cells[0])),
                        static_cast<std::uint8_t>(std::stoi(cells[1])), std::stof(cells[2]),
                        std::stof(cells[3]), std::stof(cells[4]), std::stof(cells[5])});
    }
  }
  return events;
}

std::vector<Security> load_market(const std::string& dir) {
  std::vector<Security> out;
  for (const auto& [file, market] :
       {std::pair{"000001.SZ", 0}, std::pair{"600000.SH", 1}, std::pair{"600519.SH", 1}}) {
    Security security{static_cast<std::uint8_t>(market), std::string(file).substr(0, 6),
                      read_bars(dir + "/" + file + ".csv"), {}};
    security.events = read_events(dir + "/xdxr_" + security.code + ".csv"); // none: no file
    out.push_back(std::move(security));
  }
  // D20: an index and funds. The universe takes the funds and the indices named (000300.SH is
  // among D20's default ones, 000010.SH is not).
  out.push_back({1, "000300", read_index_bars(dir + "/index_000300.SH_2019-2022.csv"), {}, true, 2});
  Security etf{1, "510300", read_tdx_export(dir + "/tdx_export_510300.SH_raw_zsh-a.txt"), {}, false, 3};
  etf.events = read_events(dir + "/xdxr_510300.csv");
  out.push_back(made_up_split_fund(etf.bars));
  out.push_back(std::move(etf));
  out.push_back({1, "000010", {}, {}, true, 2});
  // Codes the universe must leave out: TDX's sector index and a B share (D18: A-shares only), a
  // REIT (D20).
  out.push_back({1, "880023", {}, {}});
  out.push_back({0, "200002", {}, {}});
  out.push_back({1, "508000", {}, {}, false, 3});
  return out;
}

void put_u16(Bytes& out, std::uint16_t value) {
  out.push_back(static_cast<std::uint8_t>(value));
  out.push_back(static_cast<std::uint8_t>(value >> 8));
}

void put_u32(Bytes& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
}

void put_f32(Bytes& out, double value) { put_u32(out, std::bit_cast<std::uint32_t>(static_cast<float>(value))); }

// TDX's price varint: 6 bits, the sign (0x40) and "more" (0x80) in the first byte, then 7 bits and
// "more" a byte.
void put_price(Bytes& out, std::int64_t value) {
  const bool negative = value < 0;
  auto left = static_cast<std::uint64_t>(negative ? -value : value);
  auto first = static_cast<std::uint8_t>((left & 0x3f) | (negative ? 0x40 : 0));
  left >>= 6;
  out.push_back(static_cast<std::uint8_t>(first | (left != 0 ? 0x80 : 0)));
  while (left != 0) {
    const auto next = static_cast<std::uint8_t>(left & 0x7f);
    left >>= 7;
    out.push_back(static_cast<std::uint8_t>(next | (left != 0 ? 0x80 : 0)));
  }
}

// Return the made-up up and down counts of an index's bar: the reply's 4 more bytes (D20).
std::pair<std::uint16_t, std::uint16_t> up_and_down(const Bar& bar) {
  const auto up = static_cast<std::uint16_t>(bar.date % 301);
  return {up, static_cast<std::uint16_t>(300 - up)};
}

Bytes bars_body(const std::vector<Bar>& bars, std::uint16_t category, std::size_t claimed, bool index) {
  Bytes out;
  put_u16(out, static_cast<std::uint16_t>(claimed));
  std::int64_t base = 0;
  for (const auto& bar : bars) {
    put_u32(out, bar.date);
    put_price(out, bar.open - base);
    put_price(out, bar.close - bar.open);
    put_price(out, bar.high - bar.open);
    put_price(out, bar.low - bar.open);
    // An index's volume in lots whatever the category (as its .day file; D20), a stock's in lots
    // in category 9 only.
    put_f32(out, index ? bar.shares / 100 : category == 9 ? std::floor(bar.shares / 100) : bar.shares);
    put_f32(out, bar.cny);
    if (index) {
      const auto [up, down] = up_and_down(bar);
      put_u16(out, up);
      put_u16(out, down);
    }
    base = bar.close;
  }
  return out;
}

class Server {
public:
  Server(Options options, std::vector<Security> market)
      : m_options(std::move(options)), m_market(std::move(market)) {}

  void talk(int connection) {
    for (;;) {
      Bytes head(12);
      if (!read_all(connection, head)) {
        return;
      }
      const std::size_t length = head[6] | (head[7] << 8);
      Bytes body(length >= 2 ? length - 2 : 0);
      if (!read_all(connection, body)) {
        return;
      }
      if (!answer(connection, head, body)) {
        return;
      }
    }
  }

private:
  static bool read_all(int connection, Bytes& into) {
    std::size_t got = 0;
    while (got < into.size()) {
      const auto n = ::recv(connection, into.data() + got, into.size() - got, 0);
      if (n <= 0) {
        return false;
      }
      got += static_cast<std::size_t>(n);
    }
    return true;
  }

  std::optional<std::string> fault_for(const std::string& code) const {
    for (const auto& key : {code, std::string()}) {
      if (const auto it = m_options.faults.find(key); it != m_options.faults.end()) {
        return it->second;
      }
    }
    return std::nullopt;
  }

  const Security* find(std::uint8_t market, const std::string& code) const {
    for (const auto& security : m_market) {
      if (security.market == market && security.code == code) {
        return &security;
      }
    }
    return nullptr;
  }

  // Write the reply to the request whose head is `head`: body zlib-compressed past --zlib-over.
  bool send_reply(int connection, const Bytes& head, const Bytes& body, bool truncate = false) {
    Bytes wire = body;
    std::uint8_t flag = 0x0c;
    if (body.size() > m_options.zlib_over) {
      uLongf size = compressBound(body.size());
      wire.assign(size, 0);
      compress(wire.data(), &size, body.data(), body.size());
      wire.resize(size);
      flag = 0x1c;
    }
    Bytes out{0xb1, 0xcb, 0x74, 0x00, flag, head[1], head[2], head[3], head[4], 0x00, head[10], head[11]};
    put_u16(out, static_cast<std::uint16_t>(wire.size()));
    put_u16(out, static_cast<std::uint16_t>(body.size()));
    out.insert(out.end(), wire.begin(), truncate ? wire.begin() + static_cast<std::ptrdiff_t>(wire.size() / 2)
                                                 : wire.end());
    ::send(connection, out.data(), out.size(), MSG_NOSIGNAL);
    return !truncate;
  }

  bool answer(int connection, const Bytes& head, const Bytes& body) {
    const std::uint16_t method = head[10] | (head[11] << 8);
    switch (method) {
    case 0x044e: { // security count
      std::uint16_t count = 0;
      for (const auto& security : m_market) {
        count = static_cast<std::uint16_t>(count + (security.market == body[0] ? 1 : 0));
      }
      Bytes out;
      put_u16(out, count);
      return send_reply(connection, head, out);
    }
    case 0x0450: { // security list, from `start`
      const std::size_t start = body[2] | (body[3] << 8);
      Bytes entries;
      std::uint16_t count = 0;
      std::size_t index = 0;
      for (const auto& security : m_market) {
        if (security.market != body[0] || index++ < start) {
          continue;
        }
        entries.insert(entries.end(), security.code.begin(), security.code.end());
        put_u16(entries, 100);
        entries.insert(entries.end(), 8, ' ');
        entries.insert(entries.end(), 4, 0);
        entries.push_back(security.decimal_point);
        put_f32(entries, security.bars.empty() ? 0.0 : security.bars.back().close / 1000.0);
        entries.insert(entries.end(), 4, 0);
        ++count;
      }
      Bytes out;
      put_u16(out, count);
      out.insert(out.end(), entries.begin(), entries.end());
      return send_reply(connection, head, out);
    }
    case 0x052d: { // daily bars: `count` ending `start` back from the newest, oldest first
      const std::string code(body.begin() + 2, body.begin() + 8);
      const std::uint16_t category = body[8] | (body[9] << 8);
      const std::size_t start = body[12] | (body[13] << 8);
      const std::size_t count = body[14] | (body[15] << 8);
      const auto* security = find(body[0], code);
      std::vector<Bar> bars;
      if (security != nullptr) {
        const auto& all = security->bars;
        const auto end = all.size() > start ? all.size() - start : 0;
        const auto begin = end > count ? end - count : 0;
        bars.assign(all.begin() + static_cast<std::ptrdiff_t>(begin),
                    all.begin() + static_cast<std::ptrdiff_t>(end));
      }
      const auto fault = fault_for(code);
      if (fault == "hang") {
        // The line a test waits on: the client is known to be inside this call from now on.
        std::cout << "hanging " << code << std::endl;
        std::this_thread::sleep_for(std::chrono::hours(1));
        return false;
      }
      if (fault == "garbage" && !bars.empty()) {
        bars.back().shares = 5.9e-39; // hikyuu #297
      }
      const auto claimed = fault == "lie" ? bars.size() + 5 : bars.size();
      return send_reply(connection, head, bars_body(bars, category, claimed, security != nullptr && security->index),
                        fault == "truncate");
    }
    case 0x000f: { // ex-rights events
      const std::uint8_t market = body[2];
      const std::string code(body.begin() + 3, body.begin() + 9);
      const auto* security = find(market, code);
      Bytes out{market};
      out.insert(out.end(), code.begin(), code.end());
      out.insert(out.end(), {0, 0});
      const auto& events = security != nullptr ? security->events : std::vector<Event>{};
      put_u16(out, static_cast<std::uint16_t>(events.size()));
      for (const auto& event : events) {
        out.push_back(market);
        out.insert(out.end(), code.begin(), code.end());
        out.push_back(0);
        put_u32(out, event.date);
        out.push_back(event.category);
        for (const float value : {event.cash, event.rights_price, event.bonus, event.rights}) {
          put_u32(out, std::bit_cast<std::uint32_t>(value));
        }
      }
      return send_reply(connection, head, out);
    }
    default: // the set-up packets and anything else: a short answer
      return send_reply(connection, head, Bytes{0x01});
    }
  }

  Options m_options;
  std::vector<Security> m_market;
};

std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--port") {
      options.port = std::stoi(value);
    } else if (flag == "--data") {
      options.data_dir = value;
    } else if (flag == "--zlib-over") {
      options.zlib_over = std::stoul(value);
    } else if (flag == "--fault") {
      const auto colon = value.find(':');
      options.faults[colon == std::string::npos ? "" : value.substr(colon + 1)] = value.substr(0, colon);
    } else {
      return std::nullopt;
    }
  }
  if (argc % 2 == 0) {
    return std::nullopt;
  }
  return options;
}

} // namespace

int main(int argc, char** argv) {
  const auto options = parse_options(argc, argv);
  if (!options) {
    std::cerr << "usage: tdx_standin [--port N] [--data DIR] [--zlib-over N] [--fault KIND[:CODE]]...\n";
    return 2;
  }
  Server server(*options, load_market(options->data_dir));
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  const int yes = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(options->port));
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
      || ::listen(listener, 16) != 0
      || ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    std::cerr << "tdx_standin: cannot listen on 127.0.0.1:" << options->port << "\n";
    return 1;
  }
  std::cout << "listening on 127.0.0.1:" << ntohs(address.sin_port) << std::endl;
  for (;;) {
    const int connection = ::accept(listener, nullptr, nullptr);
    if (connection < 0) {
      continue;
    }
    std::thread([&server, connection] {
      server.talk(connection);
      ::close(connection);
    }).detach();
  }
}
