// The TDX client against an in-process TDX (fake_tdx.hpp): pages of bars back from the newest,
// hosts tried in turn on every kind of failure, and a call that fails only once every host has.
#include "fake_tdx.hpp"
#include "testutil.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

using namespace ashare;
using namespace ashare::fetch::tdx;
using test::date;
using test::FakeTdx;

namespace {

// `count` daily bars from 2010-01-04 on, a calendar day apart, prices moving a little.
std::vector<RawBar> history(int count) {
  std::vector<RawBar> out;
  auto day = date("2010-01-04");
  for (int i = 0; i < count; ++i) {
    const std::int64_t close = 10'000 + (i % 37) * 10;
    out.push_back(RawBar{day, close - 20, close + 50, close - 60, close, 1000.0f + static_cast<float>(i),
                         123456.0f});
    day = day.plus_days(1);
  }
  return out;
}

} // namespace

TEST_CASE("tdx client: the test TDX writes bodies byte for byte as the recorded ones") {
  for (const auto* name : {"atst_600000_cat4_20260902-113206.payload.bin",
                           "atst_000001_cat4_20260902-113206.payload.bin",
                           "rustdx_000001_cat9_20210923-27.body.bin"}) {
    CAPTURE(name);
    std::ifstream in(test::data_dir() / "tdx_7709" / name, std::ios::binary);
    const std::vector<std::uint8_t> body{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const auto bars = parse_security_bars(body);
    REQUIRE(bars);
    CHECK(test::encode_bars(*bars) == body);
  }
}

TEST_CASE("tdx client: bars come in pages of 800 back from the newest, oldest first") {
  FakeTdx tdx;
  tdx.bars["600519"] = history(2000);
  Client client(tdx, {{"a:7709"}, 2});
  const auto all = client.daily_bars(Market::sh, "600519", std::nullopt);
  REQUIRE(all);
  CHECK(*all == tdx.bars["600519"]);
  REQUIRE(tdx.asked.size() == 3); // 800, 800, then a short page of 400
  CHECK(tdx.asked[0].second == 0);
  CHECK(tdx.asked[1].second == 800);
  CHECK(tdx.asked[2].second == 1600);
  CHECK(client.host() == "a:7709");

  // From a day within the newest page: one call, and the bars from that day only.
  tdx.asked.clear();
  const auto recent = client.daily_bars(Market::sh, "600519", tdx.bars["600519"][1500].day);
  REQUIRE(recent);
  CHECK(recent->size() == 500);
  CHECK(recent->front().day == tdx.bars["600519"][1500].day);
  CHECK(tdx.asked.size() == 1);
  // A code with no bars: an empty history, not an error.
  const auto none = client.daily_bars(Market::sz, "000002", std::nullopt);
  REQUIRE(none);
  CHECK(none->empty());
}

TEST_CASE("tdx client: every failure moves to the next host and asks again") {
  FakeTdx tdx;
  tdx.bars["000001"] = history(30);
  tdx.faults = {{"refuses:7709", FakeTdx::Fault::refuses},
                {"mute:7709", FakeTdx::Fault::times_out},
                {"liar:7709", FakeTdx::Fault::truncates},
                {"other:7709", FakeTdx::Fault::answers_another}};
  Client client(tdx, {{"refuses:7709", "mute:7709", "liar:7709", "other:7709", "good:7709"}, 2});
  const auto bars = client.daily_bars(Market::sz, "000001", std::nullopt);
  REQUIRE(bars);
  CHECK(bars->size() == 30);
  CHECK(client.host() == "good:7709");
  CHECK(tdx.connects == std::vector<std::string>{"refuses:7709", "mute:7709", "liar:7709",
                                                 "other:7709", "good:7709"});
  CHECK(client.requests() == 4); // mute, liar, other, good: the refused host got none
  // The next call stays on the host that answered.
  tdx.connects.clear();
  REQUIRE(client.daily_bars(Market::sz, "000001", std::nullopt));
  CHECK(tdx.connects.empty());
}

TEST_CASE("tdx client: a call fails once every host has failed `rounds` times") {
  FakeTdx tdx;
  tdx.faults = {{"a:7709", FakeTdx::Fault::times_out}, {"b:7709", FakeTdx::Fault::truncates}};
  tdx.bars["000001"] = history(5);
  Client client(tdx, {{"a:7709", "b:7709"}, 3});
  const auto failed = client.daily_bars(Market::sz, "000001", std::nullopt);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().code == ErrorCode::service_unavailable);
  CHECK(failed.error().message.find("every TDX host failed (6 attempts") != std::string::npos);
  CHECK(failed.error().message.find("a:7709: timed out") != std::string::npos);
  CHECK(failed.error().message.find("b:7709: the TDX reply is malformed") != std::string::npos);
  CHECK(client.requests() == 6);

  Client nowhere(tdx, {{}, 2});
  const auto no_host = nowhere.daily_bars(Market::sz, "000001", std::nullopt);
  REQUIRE_FALSE(no_host);
  CHECK(no_host.error().message.find("no TDX host") != std::string::npos);
}

TEST_CASE("tdx client: a host that is no TDX server is asked no more, and said once") {
  FakeTdx tdx;
  tdx.bars["000001"] = history(5);
  tdx.faults = {{"web:80", FakeTdx::Fault::not_tdx}, {"mute:7709", FakeTdx::Fault::times_out}};
  SUBCASE("another host answers: every call goes there") {
    for (int client_number = 0; client_number < 2; ++client_number) { // a new client asks it again, once
      Client client(tdx, {{"web:80", "good:7709"}, 3});
      for (int call = 0; call < 3; ++call) {
        REQUIRE(client.daily_bars(Market::sz, "000001", std::nullopt));
      }
    }
    CHECK(tdx.connects == std::vector<std::string>{"web:80", "good:7709", "web:80", "good:7709"});
  }
  SUBCASE("no host answers: the call fails naming it once, the others' rounds as before") {
    Client client(tdx, {{"web:80", "mute:7709"}, 3});
    const auto failed = client.daily_bars(Market::sz, "000001", std::nullopt);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().code == ErrorCode::service_unavailable);
    CHECK(failed.error().message
          == "every TDX host failed (4 attempts; web:80 does not answer as a TDX server (its reply starts "
             "\"HTTP/1.1 400 Bad\", not 0x0074cbb1); the last: mute:7709: timed out after 5 s; "
             "mute:7709: timed out after 5 s; mute:7709: timed out after 5 s)");
    CHECK(std::count(tdx.connects.begin(), tdx.connects.end(), "web:80") == 1);
    CHECK(std::count(tdx.connects.begin(), tdx.connects.end(), "mute:7709") == 3);
    // The next call does not ask it again either.
    CHECK_FALSE(client.daily_bars(Market::sz, "000001", std::nullopt));
    CHECK(std::count(tdx.connects.begin(), tdx.connects.end(), "web:80") == 1);
  }
  SUBCASE("only such hosts: said once each, after one attempt each") {
    tdx.faults["web2:80"] = FakeTdx::Fault::not_tdx;
    Client client(tdx, {{"web:80", "web2:80"}, 3});
    const auto failed = client.daily_bars(Market::sz, "000001", std::nullopt);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().message.find("every TDX host failed (2 attempts; web:80 does not answer as a TDX server")
          == 0);
    CHECK(failed.error().message.find("; web2:80 does not answer as a TDX server") != std::string::npos);
    CHECK(tdx.connects.size() == 2);
  }
}

TEST_CASE("tdx client: an index's reply spanning two pages of 800 reads every bar (D20)") {
  FakeTdx tdx;
  auto bars = history(1000);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    bars[i].volume = 182'116'772.0f + static_cast<float>(i); // lots, as float32
    bars[i].up_count = static_cast<std::uint16_t>(i % 301);
    bars[i].down_count = static_cast<std::uint16_t>(300 - i % 301);
  }
  tdx.bars["000300"] = bars;
  tdx.index_codes.insert("000300");
  Client client(tdx, {{"a:7709"}, 1});
  const auto index = client.daily_bars(Market::sh, "000300", std::nullopt, BarLayout::index);
  REQUIRE(index);
  CHECK(*index == bars); // all 1000, each with its counts: no bar misaligned by the 4 bytes
  REQUIRE(tdx.asked.size() == 2); // 800, then a short page of 200
  CHECK(tdx.asked[1].second == 800);
  // Read as a stock's, the same reply is refused (the client tries the host again, then fails).
  const auto misread = client.daily_bars(Market::sh, "000300", std::nullopt);
  REQUIRE_FALSE(misread);
  CHECK(misread.error().code == ErrorCode::service_unavailable);
}
