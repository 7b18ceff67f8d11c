// The TDX protocol on the replies recorded from real servers (tests/data/tdx_7709, provenance in
// its README): each decodes to the values its source states, ashare's requests are the recorded
// bytes, and no length in a reply makes a reader go past its end.
#include "testutil.hpp"

#include "core/fetch/tdx/wire.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace ashare;
using namespace ashare::fetch::tdx;
using test::date;

namespace {

std::vector<std::uint8_t> bytes_of_file(const std::string& name) {
  std::ifstream in(test::data_dir() / "tdx_7709" / name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  std::vector<std::uint8_t> out;
  std::string digits;
  for (const char c : hex) {
    if (std::isxdigit(static_cast<unsigned char>(c)) != 0) {
      digits += c;
    }
  }
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Return the hex after `key` on its line in `name` (a recorded text file), as bytes.
std::vector<std::uint8_t> hex_after(const std::string& name, const std::string& key) {
  std::ifstream in(test::data_dir() / "tdx_7709" / name);
  std::string line;
  while (std::getline(in, line)) {
    if (const auto at = line.find(key); at != std::string::npos) {
      auto hex = line.substr(at + key.size());
      if (const auto quote = hex.find('"'); quote != std::string::npos) {
        hex = hex.substr(0, quote);
      }
      return from_hex(hex);
    }
  }
  FAIL("no " << key << " in " << name);
  return {};
}

void check_bar(const RawBar& bar, const std::string& day, std::int64_t open, std::int64_t close,
               std::int64_t high, std::int64_t low) {
  CAPTURE(day);
  CHECK(bar.day == date(day));
  CHECK(bar.open_mils == open);
  CHECK(bar.close_mils == close);
  CHECK(bar.high_mils == high);
  CHECK(bar.low_mils == low);
}

} // namespace

TEST_CASE("tdx wire: the rustdx body decodes to the bars its test states") {
  const auto bars = parse_security_bars(bytes_of_file("rustdx_000001_cat9_20210923-27.body.bin"));
  REQUIRE(bars);
  REQUIRE(bars->size() == 3);
  check_bar((*bars)[0], "2021-09-23", 18100, 17680, 18320, 17650);
  CHECK((*bars)[0].volume == 1379837.0f);
  CHECK((*bars)[0].amount == 2465683712.0f);
  check_bar((*bars)[1], "2021-09-24", 17600, 17350, 17680, 17340);
  CHECK((*bars)[1].volume == 1265696.0f);
  CHECK((*bars)[1].amount == 2209462016.0f);
  check_bar((*bars)[2], "2021-09-27", 17210, 17570, 17680, 17060);
  CHECK((*bars)[2].volume == 1140667.0f);
  CHECK((*bars)[2].amount == 1979196800.0f);
}

TEST_CASE("tdx wire: the atst captures: category 4 gives shares, 9 lots, the same prices") {
  const auto lots = parse_security_bars(bytes_of_file("atst_600000_cat9_20260902-113206.payload.bin"));
  const auto shares = parse_security_bars(bytes_of_file("atst_600000_cat4_20260902-113206.payload.bin"));
  REQUIRE(lots);
  REQUIRE(shares);
  REQUIRE(lots->size() == 10);
  REQUIRE(shares->size() == 10);
  check_bar(lots->front(), "2026-08-20", 9030, 9110, 9140, 8980);
  CHECK(lots->front().volume == 673018.0f);
  CHECK(lots->front().amount == 609806464.0f);
  CHECK(shares->front().volume == 67301816.0f);
  check_bar((*lots)[8], "2026-09-01", 9130, 9350, 9360, 9100);
  CHECK((*lots)[8].volume == 1026696.0f);
  CHECK((*lots)[8].amount == 952382720.0f);
  check_bar(lots->back(), "2026-09-02", 9350, 9310, 9430, 9300);
  CHECK(lots->back().volume == 427146.0f);
  for (std::size_t i = 0; i < lots->size(); ++i) {
    CHECK((*shares)[i].day == (*lots)[i].day);
    CHECK((*shares)[i].close_mils == (*lots)[i].close_mils);
    CHECK((*shares)[i].amount == (*lots)[i].amount);
  }
  const auto other = parse_security_bars(bytes_of_file("atst_000001_cat4_20260902-113206.payload.bin"));
  REQUIRE(other);
  CHECK(other->front().day == date("2026-08-20"));
  CHECK(other->front().open_mils == 11200);
  CHECK(other->front().close_mils == 11400);
  CHECK(other->front().volume == 118357824.0f);
}

TEST_CASE("tdx wire: an index's bars carry 4 more bytes each, which a stock's reader misreads (D20)") {
  // No index reply was recorded: pytdx's get_index_bars reads u16 up_count and u16 down_count
  // after each bar's amount. The recorded capture's bars, laid out so, byte by byte by hand.
  const auto stock_body = bytes_of_file("atst_600000_cat4_20260902-113206.payload.bin");
  auto bars = parse_security_bars(stock_body);
  REQUIRE(bars);
  REQUIRE(bars->size() == 10);
  std::vector<std::uint8_t> index_body(stock_body.begin(), stock_body.begin() + 2);
  std::size_t at = 2;
  for (std::size_t i = 0; i < bars->size(); ++i) {
    // A bar: its date, four price varints (the last byte of each without 0x80), volume, amount.
    std::size_t end = at + 4;
    for (int price = 0; price < 4; ++price) {
      while ((stock_body[end] & 0x80) != 0) {
        ++end;
      }
      ++end;
    }
    end += 8; // volume and amount
    index_body.insert(index_body.end(), stock_body.begin() + static_cast<std::ptrdiff_t>(at),
                      stock_body.begin() + static_cast<std::ptrdiff_t>(end));
    (*bars)[i].up_count = static_cast<std::uint16_t>(1000 + i);
    (*bars)[i].down_count = static_cast<std::uint16_t>(2000 + i);
    index_body.insert(index_body.end(), {static_cast<std::uint8_t>((1000 + i) & 0xff), static_cast<std::uint8_t>((1000 + i) >> 8),
                                         static_cast<std::uint8_t>((2000 + i) & 0xff), static_cast<std::uint8_t>((2000 + i) >> 8)});
    at = end;
  }
  REQUIRE(at == stock_body.size());
  REQUIRE(index_body.size() == stock_body.size() + 4 * 10);
  const auto index = parse_security_bars(index_body, BarLayout::index);
  REQUIRE(index);
  CHECK(*index == *bars); // every bar, the last one's counts included
  CHECK(index->back().up_count == 1009);
  CHECK(index->back().down_count == 2009);
  // A stock's reader takes the first bar's counts for the second bar's date, and fails.
  const auto misread = parse_security_bars(index_body, BarLayout::security);
  CHECK((!misread || *misread != *bars));
  // And an index's reader refuses a stock's body.
  CHECK_FALSE(parse_security_bars(stock_body, BarLayout::index));
  // Every cut of the index body is refused, never read past.
  for (std::size_t size = 0; size < index_body.size(); ++size) {
    CAPTURE(size);
    CHECK_FALSE(parse_security_bars(std::span(index_body).first(size), BarLayout::index));
  }
}

TEST_CASE("tdx wire: pytdx's whole frame: the head, then 10 bars of 000001.SZ") {
  const auto frame = hex_after("pytdx_get_security_bars_docstring_L14-16.txt", "recv: ");
  REQUIRE(frame.size() == 186);
  const auto head = parse_reply_head(frame);
  REQUIRE(head);
  CHECK_FALSE(head->zlib);
  CHECK(head->sequence == 0x01640801u);
  CHECK(head->method == static_cast<std::uint16_t>(Method::security_bars));
  CHECK(head->zipped_size == 170);
  CHECK(head->unzipped_size == 170);
  const auto bars = parse_security_bars(std::span(frame).subspan(k_reply_head_size));
  REQUIRE(bars);
  REQUIRE(bars->size() == 10);
  check_bar(bars->front(), "2017-06-06", 9010, 9040, 9060, 8990);
  CHECK(bars->front().volume == 355341.0f);
  check_bar(bars->back(), "2017-06-19", 9030, 9130, 9150, 9020);
  CHECK(bars->back().volume == 489704.0f);
  // And the request pytdx sent for them is ashare's, byte for byte.
  CHECK(security_bars_request(0x01640801, Market::sz, "000001", 9, 0, 10)
        == hex_after("pytdx_get_security_bars_docstring_L14-16.txt", "send: "));
}

TEST_CASE("tdx wire: the injoyai body: OHLC equal Tushare's 000001.SZ on its 10 days") {
  const auto bars = parse_security_bars(hex_after("injoyai_model_kline_test_L9-10_L16.txt", "s := \""));
  REQUIRE(bars);
  REQUIRE(bars->size() == 10);
  CHECK(bars->front().day == date("2024-10-16"));
  CHECK(bars->back().day == date("2024-10-29"));
  // tests/data/jenny_000001.SZ.csv: trade_date,symbol,open,high,low,close,volume,turnover
  std::map<std::string, std::vector<std::string>> tushare;
  std::ifstream in(test::data_dir() / "jenny_000001.SZ.csv");
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, ',');) {
      cells.push_back(cell);
    }
    tushare[cells[0]] = cells;
  }
  const auto mils = [](const std::string& price) {
    return static_cast<std::int64_t>(std::llround(std::stod(price) * 1000));
  };
  for (const auto& bar : *bars) {
    const auto& row = tushare.at(bar.day.iso());
    CAPTURE(bar.day.iso());
    CHECK(bar.open_mils == mils(row[2]));
    CHECK(bar.high_mils == mils(row[3]));
    CHECK(bar.low_mils == mils(row[4]));
    CHECK(bar.close_mils == mils(row[5]));
    CHECK(std::abs(static_cast<double>(bar.volume) - std::stod(row[6]) / 100) <= 1); // lots
  }
}

TEST_CASE("tdx wire: a first reply that does not start as TDX's says what came instead") {
  const auto frame = hex_after("pytdx_get_security_bars_docstring_L14-16.txt", "recv: ");
  CHECK_FALSE(not_tdx_reply(frame).has_value());
  const auto bytes = [](std::string_view text) { return std::vector<std::uint8_t>(text.begin(), text.end()); };
  CHECK(not_tdx_reply(bytes("HTTP/1.1 400 Bad Request\r\n")) == "its reply starts \"HTTP/1.1 400 Bad\", not 0x0074cbb1");
  CHECK(not_tdx_reply(bytes("SSH-2.0-OpenSSH_")) == "its reply starts \"SSH-2.0-OpenSSH_\", not 0x0074cbb1");
  CHECK(not_tdx_reply(bytes("ok\r\n")) == "its reply starts \"ok\\r\\n\", not 0x0074cbb1");
  CHECK(not_tdx_reply(std::vector<std::uint8_t>{0x00, 0xff, 0x10}) == "its reply starts 00 ff 10, not 0x0074cbb1");
  // Only the magic says TDX: a head that is wrong after it is a malformed reply, not another server.
  auto wrong_flag = frame;
  wrong_flag[4] = 0x7f;
  CHECK_FALSE(not_tdx_reply(wrong_flag).has_value());
}

TEST_CASE("tdx wire: the rustdx ex-rights record, and a whole reply around it") {
  const auto record = bytes_of_file("rustdx_xdxr_000001_19900301.record.bin");
  const auto event = parse_xdxr_record(record);
  REQUIRE(event);
  CHECK(event->market == Market::sz);
  CHECK(event->code == "000001");
  CHECK(event->day == date("1990-03-01"));
  CHECK(event->category == 1);
  CHECK(event->cash == 0.0f);
  CHECK(event->rights_price == 3.56f);
  CHECK(event->bonus == 0.0f);
  CHECK(event->rights == 1.0f);

  // pytdx's layout of a reply (no whole one was recorded): the code asked for, a count, records.
  std::vector<std::uint8_t> body{0x00, '0', '0', '0', '0', '0', '1', 0x00, 0x00, 0x02, 0x00};
  body.insert(body.end(), record.begin(), record.end());
  body.insert(body.end(), record.begin(), record.end());
  const auto events = parse_xdxr_info(body);
  REQUIRE(events);
  CHECK(events->size() == 2);
  body[9] = 3; // a count the body does not hold
  CHECK_FALSE(parse_xdxr_info(body));
}

TEST_CASE("tdx wire: ashare's requests are the recorded bytes") {
  const auto setup = setup_requests();
  REQUIRE(setup.size() == 3);
  CHECK(setup[0] == hex_after("request_packets.txt", "SetupCmd1: "));
  CHECK(setup[1] == hex_after("request_packets.txt", "SetupCmd2: "));
  CHECK(setup[2] == hex_after("request_packets.txt", "SetupCmd3: "));
  // atst's request bodies (after the 12-byte head) for its three captures.
  const auto body = [](const std::vector<std::uint8_t>& request) {
    return std::vector<std::uint8_t>(request.begin() + 12, request.end());
  };
  CHECK(body(security_bars_request(1, Market::sh, "600000", 4, 0, 10))
        == from_hex("01003630303030300400010000000a0000000000000000000000"));
  CHECK(body(security_bars_request(1, Market::sh, "600000", 9, 0, 10))
        == from_hex("01003630303030300900010000000a0000000000000000000000"));
  CHECK(body(security_bars_request(1, Market::sz, "000001", 4, 0, 10))
        == from_hex("00003030303030310400010000000a0000000000000000000000"));
  CHECK(xdxr_request(0x0076181f, Market::sz, "000001")
        == from_hex("0c 1f 18 76 00 01 0b 00 0b 00 0f 00 01 00 00 30 30 30 30 30 31"));
}

TEST_CASE("tdx wire: no length in a reply reads past its end") {
  const auto whole = bytes_of_file("atst_600000_cat4_20260902-113206.payload.bin");
  // Every cut of a valid body is refused, never read past.
  for (std::size_t size = 0; size < whole.size(); ++size) {
    CAPTURE(size);
    CHECK_FALSE(parse_security_bars(std::span(whole).first(size)));
  }
  auto lying = whole;
  lying[0] = 0xff; // a count of 255 bars in a body of 10
  const auto refused = parse_security_bars(lying);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::invalid_input);
  CHECK(refused.error().message.find("runs past the body") != std::string::npos);
  auto trailing = whole;
  trailing.push_back(0);
  CHECK_FALSE(parse_security_bars(trailing));
  // A varint that never ends, and one of six bytes with a whole bar's bytes after it (the
  // fuzz target's first find: the reader went on with a price it did not have).
  std::vector<std::uint8_t> endless{0x01, 0x00, 0x8d, 0xa7, 0x2f, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  CHECK_FALSE(parse_security_bars(endless));
  auto six = whole;
  std::fill(six.begin() + 6, six.begin() + 12, std::uint8_t{0xff});
  six[12] = 0x01;
  const auto too_long = parse_security_bars(six);
  REQUIRE_FALSE(too_long);
  CHECK(too_long.error().message.find("more than five bytes") != std::string::npos);
  // Heads: short, another magic, an unknown flag, a plain body with two sizes.
  const auto frame = hex_after("pytdx_get_security_bars_docstring_L14-16.txt", "recv: ");
  CHECK_FALSE(parse_reply_head(std::span(frame).first(15)));
  auto head = std::vector<std::uint8_t>(frame.begin(), frame.begin() + 16);
  auto bad = head;
  bad[0] = 0;
  CHECK_FALSE(parse_reply_head(bad));
  bad = head;
  bad[4] = 0x0d;
  CHECK_FALSE(parse_reply_head(bad));
  bad = head;
  bad[14] = 0xab;
  CHECK_FALSE(parse_reply_head(bad));
  bad = head;
  bad[4] = 0x1c; // zlib: the sizes may differ
  bad[14] = 0xab;
  CHECK(parse_reply_head(bad));
  const auto record = bytes_of_file("rustdx_xdxr_000001_19900301.record.bin");
  CHECK_FALSE(parse_xdxr_record(std::span(record).first(28)));
}

TEST_CASE("tdx wire: the security count and list (pytdx's layout: no reply was recorded)") {
  // pytdx's get_security_count docstring: the request for Shenzhen, byte for byte.
  CHECK(security_count_request(0x006c180c, Market::sz)
        == from_hex("0c 0c 18 6c 00 01 08 00 08 00 4e 04 00 00 75 c7 33 01"));
  const auto count = parse_security_count(from_hex("e7 19"));
  REQUIRE(count);
  CHECK(*count == 6631);
  CHECK_FALSE(parse_security_count(from_hex("e7")));
  CHECK_FALSE(parse_security_count(from_hex("e7 19 00")));
  // pytdx's get_security_list request head, then market and start.
  CHECK(security_list_request(0x01641801, Market::sh, 1000)
        == from_hex("0c 01 18 64 01 01 06 00 06 00 50 04 01 00 e8 03"));
  // Two entries as pytdx reads them (its comment's 880023 entry, and a stock).
  auto entry = [](const std::string& code, float pre_close) {
    std::vector<std::uint8_t> out(code.begin(), code.end());
    out.insert(out.end(), {0x64, 0x00});                  // volume unit 100
    out.insert(out.end(), 8, 0x20);                       // the GBK name, left out
    out.insert(out.end(), {0, 0, 0, 0, 2});               // 4 bytes, decimal point 2
    const auto bits = std::bit_cast<std::uint32_t>(pre_close);
    for (int i = 0; i < 4; ++i) {
      out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
    }
    out.insert(out.end(), 4, 0);
    return out;
  };
  std::vector<std::uint8_t> body{2, 0};
  for (const auto& one : {entry("880023", 17.575001f), entry("600519", 1410.0f)}) {
    body.insert(body.end(), one.begin(), one.end());
  }
  const auto list = parse_security_list(body);
  REQUIRE(list);
  REQUIRE(list->size() == 2);
  CHECK((*list)[0].code == "880023");
  CHECK((*list)[1].code == "600519");
  CHECK((*list)[1].pre_close == 1410.0f);
  for (std::size_t size = 0; size < body.size(); ++size) {
    CHECK_FALSE(parse_security_list(std::span(body).first(size)));
  }
}

TEST_CASE("tdx wire: A-shares only (D18)") {
  for (const auto* code : {"600519", "601318", "603288", "605499", "688981", "689009"}) {
    CHECK(is_a_share(Market::sh, code));
  }
  for (const auto* code : {"000001", "001979", "002594", "003816", "300750", "301236"}) {
    CHECK(is_a_share(Market::sz, code));
  }
  for (const auto* code : {"430047", "838163", "873703", "920163"}) {
    CHECK(is_a_share(Market::bj, code));
  }
  // Indices, funds, bonds, B shares, another market's code, and what is no code at all.
  for (const auto* code : {"000001", "510300", "019547", "900901", "880023", "999999"}) {
    CHECK_FALSE(is_a_share(Market::sh, code));
  }
  for (const auto* code : {"399001", "159915", "123001", "200002"}) {
    CHECK_FALSE(is_a_share(Market::sz, code));
  }
  CHECK_FALSE(is_a_share(Market::bj, "899050"));
  CHECK_FALSE(is_a_share(Market::sz, "600519"));
  CHECK_FALSE(is_a_share(Market::sh, "60051"));
  CHECK_FALSE(is_a_share(Market::sh, "60051x"));
}
