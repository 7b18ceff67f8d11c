// TDX bars as rows (D18): units of category 4, the pre_close across ex-dates, and garbage bars
// refused by day, on the recorded replies (tests/data/tdx_7709) and 600519.SH's real ex-dates.
#include "testutil.hpp"

#include "core/fetch/tdx/bars.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

using namespace ashare;
using namespace ashare::fetch::tdx;
using test::date;

namespace {

std::vector<RawBar> recorded(const std::string& name) {
  std::ifstream in(test::data_dir() / "tdx_7709" / name, std::ios::binary);
  const std::vector<std::uint8_t> body{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto bars = parse_security_bars(body);
  REQUIRE(bars);
  return *bars;
}

RawBar raw(const std::string& day, std::int64_t open, std::int64_t high, std::int64_t low,
           std::int64_t close, float volume = 1000, float amount = 10000) {
  return RawBar{date(day), open, high, low, close, volume, amount};
}

domain::Date today() { return date("2026-11-26"); } // not a static: date() needs main to have begun

} // namespace

TEST_CASE("tdx bars: category 4's captures become rows in shares and CNY") {
  const auto bars = recorded("atst_600000_cat4_20260902-113206.payload.bin");
  const auto file = rows_of_bars("600000.SH", domain::Kind::stock, bars, {}, std::nullopt, today());
  CHECK(file.problems.empty());
  REQUIRE(file.rows.size() == 10);
  const auto& first = file.rows.front();
  CHECK(first.symbol == "600000.SH");
  CHECK(first.bar.trade_date == date("2026-08-20"));
  CHECK(first.bar.open == 9.03);
  CHECK(first.bar.high == 9.14);
  CHECK(first.bar.low == 8.98);
  CHECK(first.bar.close == 9.11);
  CHECK(first.bar.volume == 67'301'816);
  CHECK(first.bar.turnover == 609'806'464.0);
  CHECK_FALSE(first.pre_close); // nothing before it was asked for
  CHECK_FALSE(first.has_change_pct);
  // Without events, each pre_close is the close before.
  for (std::size_t i = 1; i < file.rows.size(); ++i) {
    REQUIRE(file.rows[i].pre_close);
    CHECK(*file.rows[i].pre_close == file.rows[i - 1].bar.close);
  }
}

TEST_CASE("tdx bars: across an ex-date the pre_close is the exchange's") {
  // 600519.SH: 2024-12-19 and the ex-date 2024-12-20 (Tushare's raw bars,
  // shared/data/real/tushare_daily_jenny/600519.SH.csv; the event from injoyai's fixture).
  const std::vector<RawBar> bars{raw("2024-12-19", 1'565'140, 1'567'930, 1'550'330, 1'551'010),
                                 raw("2024-12-20", 1'531'130, 1'541'800, 1'520'020, 1'522'000)};
  XdxrEvent dividend;
  dividend.market = Market::sh;
  dividend.code = "600519";
  dividend.day = date("2024-12-20");
  dividend.category = 1;
  dividend.cash = 238.82f;
  XdxrEvent other = dividend; // another category (not a dividend): no effect on prices
  other.category = 5;
  other.cash = 1000;
  const std::vector<XdxrEvent> events{other, dividend};
  const auto file = rows_of_bars("600519.SH", domain::Kind::stock, bars, events, std::nullopt, today());
  REQUIRE(file.rows.size() == 2);
  REQUIRE(file.rows[1].pre_close);
  CHECK(*file.rows[1].pre_close == 1527.13); // Tushare's pre_close that day
  // An event before the previous bar is not between them.
  const auto earlier = rows_of_bars("600519.SH", domain::Kind::stock, std::span(bars).subspan(1), events,
                                    raw("2024-12-20", 1'531'130, 1'541'800, 1'520'020, 1'522'000), today());
  REQUIRE(earlier.rows.size() == 1);
  CHECK(*earlier.rows[0].pre_close == 1522.0);
}

TEST_CASE("tdx bars: garbage bars are problems naming their day, never rows") {
  std::vector<RawBar> bars{
      raw("2024-01-02", 10'000, 10'500, 9'900, 10'200),
      raw("2024-01-03", 10'200, 10'300, 10'000, 10'100, 5.9e-39f),  // hikyuu #297's volume
      raw("2024-01-04", 10'100, 10'000, 9'900, 10'050),             // high below open
      raw("2024-01-05", 10'100, 10'300, 9'900, 10'050, -100),
      raw("2024-01-08", 10'100, 10'300, 9'900, 10'050, 100, std::numeric_limits<float>::quiet_NaN()),
      raw("2024-01-09", 10'100, 10'300, 9'900, 10'050, 100, -1),
      raw("2024-01-10", 0, 10'300, 0, 10'050),                      // a price of 0
      raw("2024-01-11", 10'100, 10'300, 9'900, 10'000),
  };
  const auto file = rows_of_bars("000001.SZ", domain::Kind::stock, bars, {}, std::nullopt, today());
  REQUIRE(file.rows.size() == 2);
  CHECK(file.rows[1].bar.trade_date == date("2024-01-11"));
  CHECK(*file.rows[1].pre_close == 10.2); // from the last good bar
  REQUIRE(file.problems.size() == 6);
  CHECK(file.problems[0].line == 2);
  CHECK(file.problems[0].column == "volume");
  CHECK(file.problems[0].message.find("2024-01-03: volume") == 0);
  CHECK(file.problems[1].column == "high");
  CHECK(file.problems[2].column == "volume");
  CHECK(file.problems[3].column == "turnover");
  CHECK(file.problems[4].column == "turnover");
  CHECK(file.problems[5].column == "open");
  // A bar dated after today (UTC+8) is refused as D16 says.
  const auto future = rows_of_bars("000001.SZ", domain::Kind::stock, std::vector{raw("2026-11-27", 10'000, 10'500, 9'900, 10'200)},
                                   {}, std::nullopt, today());
  REQUIRE(future.problems.size() == 1);
  CHECK(future.problems[0].column == "trade_date");
}

TEST_CASE("tdx bars: an index's volume is lots x 100 rounded from float32, and no event moves it (D20)") {
  // 000300.SH on 2020-01-02 (Tushare's index_daily: vol 182116772.0 lots, amount 270105532.0
  // thousand CNY), as TDX sends it: float32 lots, float32 CNY, prices to 1/1000.
  auto first = raw("2019-12-31", 4'096'000, 4'098'000, 4'080'000, 4'096'582, 100.4f, 1e9f);
  auto second = raw("2020-01-02", 4'121'349, 4'172'656, 4'121'349, 4'152'241, 182'116'772.0f, 270'105'532'000.0f);
  XdxrEvent event; // an index has no ex-rights events: one sent is passed over
  event.code = "000300";
  event.day = date("2020-01-02");
  event.category = 1;
  event.cash = 10.0f;
  const auto file = rows_of_bars("000300.SH", domain::Kind::index, std::vector{first, second},
                                 std::vector{event}, std::nullopt, today());
  CHECK(file.problems.empty());
  REQUIRE(file.rows.size() == 2);
  CHECK(file.rows[0].bar.volume == 10'000); // 100.4 lots: 100 whole lots
  // float32(182116772) is 182116768: round(float32(lots)) x 100.
  CHECK(file.rows[1].bar.volume == std::llround(static_cast<double>(182'116'772.0f)) * 100);
  CHECK(file.rows[1].bar.volume == 18'211'676'800);
  CHECK(file.rows[1].bar.close == 4152.241);
  REQUIRE(file.rows[1].pre_close);
  CHECK(*file.rows[1].pre_close == 4096.582); // the close before, whatever the event says
  // Lots need not be whole; a volume no day has is refused.
  const auto huge = rows_of_bars("000300.SH", domain::Kind::index, std::vector{raw("2020-01-03", 4'000'000, 4'000'000, 4'000'000, 4'000'000, 3e38f)},
                                 {}, std::nullopt, today());
  REQUIRE(huge.problems.size() == 1);
  CHECK(huge.problems[0].column == "volume");
}

TEST_CASE("tdx bars: a fund's pre_close comes to 0.001 CNY from its dividends and its splits (D20)") {
  // 510300.SH's bars around its ex-date 2021-01-18 (TDX's raw export), 0.072 a unit.
  const std::vector<RawBar> bars{raw("2021-01-15", 5'600, 5'606, 5'503, 5'526, 1.2e9f),
                                 raw("2021-01-18", 5'451, 5'537, 5'446, 5'513, 1.2e9f)};
  XdxrEvent dividend;
  dividend.code = "510300";
  dividend.day = date("2021-01-18");
  dividend.category = k_dividends_and_rights;
  dividend.cash = 0.72f;
  const auto file = rows_of_bars("510300.SH", domain::Kind::fund, bars, std::vector{dividend}, std::nullopt, today());
  REQUIRE(file.rows.size() == 2);
  CHECK(*file.rows[1].pre_close == 5.454); // a stock's tick would say 5.45
  // A split of 1 unit into 3: the pre_close is the close before over 3; for a stock, no such event.
  XdxrEvent split = dividend;
  split.category = k_unit_split;
  split.cash = 0;
  split.bonus = 3.0f;
  split.day = date("2023-06-15");
  const std::vector<RawBar> split_bars{raw("2023-06-14", 12'000, 12'300, 11'900, 12'100),
                                       raw("2023-06-15", 4'030, 4'100, 4'000, 4'050)};
  const auto fund = rows_of_bars("169999.SZ", domain::Kind::fund, split_bars, std::vector{split}, std::nullopt, today());
  REQUIRE(fund.rows.size() == 2);
  CHECK(*fund.rows[1].pre_close == 4.033); // 12.1 / 3 = 4.0333..., half up to 0.001
  const auto stock = rows_of_bars("000001.SZ", domain::Kind::stock, split_bars, std::vector{split}, std::nullopt, today());
  CHECK(*stock.rows[1].pre_close == 12.1);
}
