// D18's pre_close on an ex-date from TDX's category-1 events, against the exchange's own (Tushare's
// `pre_close`) on real ex-dates of 600519.SH; D20's for a fund, to 0.001 CNY, and its category-11
// splits.
#include "testutil.hpp"

#include "core/fetch/tdx/ex_rights.hpp"

#include <doctest/doctest.h>

#include <limits>

using namespace ashare;
using namespace ashare::fetch::tdx;
using test::date;

namespace {

XdxrEvent cash_event(const std::string& day, float cash_per_10) {
  XdxrEvent event;
  event.market = Market::sh;
  event.code = "600519";
  event.day = date(day);
  event.category = 1;
  event.cash = cash_per_10;
  return event;
}

// A stock's pre_close, in cents.
std::int64_t pre_close(std::int64_t previous_close_mils, std::vector<XdxrEvent> events) {
  const auto mils = ex_rights_pre_close(previous_close_mils, events, Tick::cent);
  REQUIRE(mils);
  REQUIRE(mils->has_value());
  CHECK(**mils % 10 == 0);
  return **mils / 10;
}

} // namespace

TEST_CASE("tdx ex-rights: 600519.SH's cash dividends give the exchange's pre_close") {
  // Events: injoyai/tdx's gbbq fixture (shared/data/real/protocols/tdx_7709/
  // injoyai_gbbq_qfq_fixture.txt, ev600519). Closes the day before and the exchange's pre_close on
  // the ex-date: shared/data/real/tushare_daily_jenny/600519.SH.csv.
  CHECK(pre_close(1'675'000, {cash_event("2023-12-20", 191.06f)}) == 165'589); // 1655.894
  CHECK(pre_close(1'521'500, {cash_event("2024-06-19", 308.76f)}) == 149'062); // 1490.624
  CHECK(pre_close(1'551'010, {cash_event("2024-12-20", 238.82f)}) == 152'713); // 1527.128
}

TEST_CASE("tdx ex-rights: bonus shares, a rights issue, ties and events in turn") {
  // 10 for 10 with 30 per 10 in cash (000651.SZ, 2015-07-03, in the same fixture): 58.49 the day
  // before gives (584.9 - 30) / 20 = 27.745, half up 27.75.
  auto bonus = cash_event("2015-07-03", 30.0f);
  bonus.code = "000651";
  bonus.bonus = 10.0f;
  CHECK(pre_close(58'490, {bonus}) == 2'775);
  // A rights issue: 3 per 10 at 5.00 after a close of 10.00: (100 + 15) / 13 = 8.846..., 8.85.
  auto rights = cash_event("2020-01-02", 0.0f);
  rights.rights = 3.0f;
  rights.rights_price = 5.0f;
  CHECK(pre_close(10'000, {rights}) == 885);
  // An exact tie is rounded up: (15510.1 - 238.85) / 10 = 1527.125.
  CHECK(pre_close(1'551'010, {cash_event("2024-12-20", 238.85f)}) == 152'713);
  // Two events between two bars apply in date order (600519.SH's 2006 events, 91.41 before):
  // (914.1 - 3) / 20 = 45.555, then (455.55 - 5.91) / 11.2 = 40.1464..., 40.15.
  auto first = cash_event("2006-05-19", 3.0f);
  first.bonus = 10.0f;
  auto second = cash_event("2006-05-24", 5.91f);
  second.bonus = 1.2f;
  CHECK(pre_close(91'410, {first, second}) == 4'015);
}

TEST_CASE("tdx ex-rights: no event, or events no share carries") {
  const auto none = ex_rights_pre_close(91'410, {}, Tick::cent);
  REQUIRE(none);
  CHECK_FALSE(none->has_value());
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -1.0f, 3e38f}) {
    auto event = cash_event("2024-12-20", bad);
    CHECK_FALSE(ex_rights_pre_close(1'551'010, std::vector{event}, Tick::cent));
  }
  // Many events in a long suspension stay exact enough and within 128 bits.
  std::vector<XdxrEvent> many;
  for (int i = 0; i < 8; ++i) {
    auto event = cash_event("2024-12-20", 999'999.0f);
    event.bonus = 999'999.0f;
    event.rights = 999'999.0f;
    event.rights_price = 999'999.0f;
    many.push_back(event);
  }
  CHECK(ex_rights_pre_close(999'999'999, many, Tick::cent));
  many.push_back(many.back());
  CHECK_FALSE(ex_rights_pre_close(999'999'999, many, Tick::cent));
}

namespace {

XdxrEvent split_event(const std::string& day, float units_per_unit) {
  XdxrEvent event;
  event.market = Market::sz;
  event.code = "169999";
  event.day = date(day);
  event.category = k_unit_split;
  event.bonus = units_per_unit; // the third number: pytdx's `suogu`
  return event;
}

std::int64_t fund_pre_close(std::int64_t previous_close_mils, std::vector<XdxrEvent> events) {
  const auto mils = ex_rights_pre_close(previous_close_mils, events, Tick::mil);
  REQUIRE(mils);
  REQUIRE(mils->has_value());
  return **mils;
}

} // namespace

TEST_CASE("tdx ex-rights: a fund's dividend gives its pre_close to 0.001 CNY (D20)") {
  // 510300.SH, 2021-01-18: 5.526 the day before, 0.072 a unit (0.72 per 10): 5.454, where a
  // stock's tick would give 5.45.
  auto dividend = cash_event("2021-01-18", 0.72f);
  dividend.code = "510300";
  CHECK(fund_pre_close(5'526, {dividend}) == 5'454);
  CHECK(pre_close(5'526, {dividend}) == 545);
  // A tie at the fund's tick is rounded up: (10.001 x 10 - 0.005) / 10 = 10.0005, 10.001.
  CHECK(fund_pre_close(10'001, {cash_event("2020-01-02", 0.005f)}) == 10'001);
  CHECK(fund_pre_close(10'001, {cash_event("2020-01-02", 0.015f)}) == 10'000); // 9.9995, up
}

TEST_CASE("tdx ex-rights: a fund's category-11 split divides the close by its ratio (D20)") {
  CHECK(fund_pre_close(3'000, {split_event("2023-06-15", 3.0f)}) == 1'000);
  CHECK(fund_pre_close(1'234, {split_event("2023-06-15", 6.0f)}) == 206);   // 0.20566..., 0.206
  CHECK(fund_pre_close(1'001, {split_event("2023-06-15", 2.0f)}) == 501);   // 0.5005, half up
  CHECK(fund_pre_close(2'345, {split_event("2023-06-15", 0.5f)}) == 4'690); // units merged 2 into 1
  // A dividend, then a split, between the same two bars: in date order, one rounding.
  CHECK(fund_pre_close(3'000, {cash_event("2023-06-14", 0.3f), split_event("2023-06-15", 3.0f)}) == 990);
  // Other categories (share counts, warrants) change no price.
  auto shares = split_event("2023-06-15", 3.0f);
  shares.category = 5;
  CHECK(fund_pre_close(3'000, {shares}) == 3'000);
  // A split into no units, or merges that would take the price past any share's, are refused.
  CHECK_FALSE(ex_rights_pre_close(3'000, std::vector{split_event("2023-06-15", 0.0f)}, Tick::mil));
  CHECK_FALSE(ex_rights_pre_close(3'000, std::vector{split_event("2023-06-15", 0.00001f)}, Tick::mil));
  const std::vector merges(8, split_event("2023-06-15", 0.0001f));
  const auto refused = ex_rights_pre_close(999'999'999, merges, Tick::mil);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("a price of over") != std::string::npos);
}
