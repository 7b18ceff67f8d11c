#include "testutil.hpp"

#include "core/fetch/factor_chain.hpp"
#include "core/fetch/tdx/bars.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

import::ParsedRow chain_row(const std::string& symbol,
                            const std::string& day,
                            double close,
                            std::optional<double> pre_close = std::nullopt){import::ParsedRow row;
row.symbol = symbol;
row.bar = test::make_bar(day, close, close, close, close);
row.pre_close = pre_close;
return row;
}

// A store holding 600519.SH's bars of 2024-01-02 and 2024-01-03 (close 10 and 11, factors 2 and
// 2.5) as an import with a factor column writes them.
struct Stored {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "chain.db"};

  Stored() {
    test::import_text(store,
                      "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
                      "600519.SH,2024-01-02,10,10,10,10,100,1000,0,2\n"
                      "600519.SH,2024-01-03,11,11,11,11,100,1100,10,2.5\n",
                      test::import_options(false, "fixture"));
  }
};

} // namespace

TEST_CASE("fetch::FactorChain: a symbol with no stored bar starts a chain") {
  Stored stored;
  FactorChain chain(stored.store);
  SUBCASE("at 1 along the pre_close chain, as the importer's") {
    std::vector rows{chain_row("000001.SZ", "2024-01-04", 10)};
    const auto origins = chain.settle(rows, {});
    CHECK(rows[0].bar.factor == 1.0);
    CHECK(origins.at("000001.SZ") == import::FactorOrigin::pre_close_chain);
    // The next day continues from the bar this chain wrote last: a dividend of 0.5.
    std::vector next{chain_row("000001.SZ", "2024-01-05", 9.5, 9.5)};
    chain.settle(next, {});
    CHECK(next[0].bar.factor == 10.0 / 9.5);
  }
  SUBCASE("at its cumulative factor, as the importer's join") {
    std::vector rows{chain_row("000001.SZ", "2024-01-04", 10)};
    const auto origins = chain.settle(rows, {{"000001.SZ", 3.5}});
    CHECK(rows[0].bar.factor == 3.5);
    CHECK(origins.at("000001.SZ") == import::FactorOrigin::adj_factor);
    // Kept on the source's scale exactly.
    std::vector next{chain_row("000001.SZ", "2024-01-05", 10, 9.5)};
    chain.settle(next, {{"000001.SZ", 3.7}});
    CHECK(next[0].bar.factor == 3.7);
  }
  SUBCASE("at a factor set backwards from a later stored bar") {
    chain.set_backward("000001.SZ", date("2024-01-04"), 0.75);
    std::vector rows{chain_row("000001.SZ", "2024-01-04", 10)};
    chain.settle(rows, {});
    CHECK(rows[0].bar.factor == 0.75);
  }
}

TEST_CASE("fetch::FactorChain: a stored chain continues on its own scale") {
  Stored stored;
  FactorChain chain(stored.store);
  SUBCASE("along the pre_close chain: factor[t-1] x close[t-1] / pre_close[t]") {
    std::vector rows{chain_row("600519.SH", "2024-01-04", 10, 10)};
    const auto origins = chain.settle(rows, {});
    CHECK(rows[0].bar.factor == 2.5 * (11.0 / 10.0));
    CHECK(origins.at("600519.SH") == import::FactorOrigin::file); // the stored origin is kept
  }
  SUBCASE("a day without pre_close steps by nothing") {
    std::vector rows{chain_row("600519.SH", "2024-01-04", 10)};
    chain.settle(rows, {});
    CHECK(rows[0].bar.factor == 2.5);
  }
  SUBCASE("along cumulative factors once one is remembered: factor[t-1] x adj[t] / adj[t-1]") {
    chain.remember_adj("600519.SH", date("2024-01-03"), 4.0);
    chain.remember_adj("600519.SH", date("2024-01-02"), 8.0); // older: the latest one stays
    std::vector rows{chain_row("600519.SH", "2024-01-04", 10, 11)};
    chain.settle(rows, {{"600519.SH", 5.0}});
    CHECK(rows[0].bar.factor == 2.5 * (5.0 / 4.0));
  }
  SUBCASE("without the day before's cumulative factor, along the pre_close chain") {
    std::vector rows{chain_row("600519.SH", "2024-01-04", 10, 10)};
    chain.settle(rows, {{"600519.SH", 5.0}});
    CHECK(rows[0].bar.factor == 2.5 * (11.0 / 10.0));
  }
  SUBCASE("a day with a stored bar keeps its factor, whatever the source says") {
    std::vector rows{chain_row("600519.SH", "2024-01-03", 11, 5)};
    chain.settle(rows, {{"600519.SH", 9.0}});
    CHECK(rows[0].bar.factor == 2.5);
  }
  SUBCASE("days written by the fetch chain on from the last of them") {
    std::vector first{chain_row("600519.SH", "2024-01-04", 10, 11)};
    chain.settle(first, {});
    std::vector second{chain_row("600519.SH", "2024-01-05", 8, 10)};
    chain.settle(second, {});
    CHECK(first[0].bar.factor == 2.5);
    CHECK(second[0].bar.factor == 2.5 * (10.0 / 10.0) * (10.0 / 10.0));
    std::vector third{chain_row("600519.SH", "2024-01-08", 4, 4)};
    chain.settle(third, {});
    CHECK(third[0].bar.factor == second[0].bar.factor * (8.0 / 4.0));
  }
}

TEST_CASE("fetch::FactorChain: missing days in a row inside the stored history chain from each other (a repair)") {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "gap.db"};
  test::import_text(store,
                    "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
                    "510300.SH,2022-12-14,4.015,4.015,4.015,4.015,100,401.5,0,1\n"
                    "510300.SH,2022-12-19,3.959,3.959,3.959,3.959,100,395.9,0,1\n",
                    test::import_options(false, "fixture"));
  FactorChain chain(store);
  // 12-15 and 12-16 asked again at once: 12-16's bar before is 12-15, not yet stored.
  std::vector rows{chain_row("510300.SH", "2022-12-15", 4.013, 4.015),
                   chain_row("510300.SH", "2022-12-16", 4.017, 4.013)};
  chain.settle(rows, {});
  CHECK(rows[0].bar.factor == 1.0);
  CHECK(rows[1].bar.factor == 1.0);
  SUBCASE("a dividend on the second day steps from the first") {
    FactorChain again(store);
    std::vector stepped{chain_row("510300.SH", "2022-12-15", 4.013, 4.015),
                        chain_row("510300.SH", "2022-12-16", 4.017, 3.913)};
    again.settle(stepped, {});
    CHECK(stepped[1].bar.factor == 4.013 / 3.913);
  }
}

TEST_CASE("fetch::backward_factors") {
  const auto anchor = test::make_bar("2024-01-05", 20, 20, 20, 20, 3.0);
  SUBCASE("along the pre_close chain, the last entry the anchor's own") {
    // A dividend of 1 on 2024-01-04 (pre_close 9 after a close of 10), none on the anchor's day.
    const std::vector rows{chain_row("600519.SH", "2024-01-03", 10),
                           chain_row("600519.SH", "2024-01-04", 18, 9),
                           chain_row("600519.SH", "2024-01-05", 20, 18)};
    const auto factors = backward_factors(rows, anchor, {});
    REQUIRE(factors.size() == 3);
    CHECK(factors[2] == 3.0);
    CHECK(factors[1] == 3.0 * (18.0 / 18.0));
    CHECK(factors[0] == factors[1] * (9.0 / 10.0));
  }
  SUBCASE("along cumulative factors where every row and the anchor has one") {
    const std::vector rows{chain_row("600519.SH", "2024-01-04", 18),
                           chain_row("600519.SH", "2024-01-05", 20)};
    const auto factors = backward_factors(rows, anchor, {{20240104, 1.5}, {20240105, 2.0}});
    CHECK(factors == std::vector<double>{3.0 * (1.5 / 2.0), 3.0});
  }
  SUBCASE("one cumulative factor missing: the pre_close chain for all") {
    const std::vector rows{chain_row("600519.SH", "2024-01-04", 18),
                           chain_row("600519.SH", "2024-01-05", 20, 9)};
    const auto factors = backward_factors(rows, anchor, {{20240105, 2.0}});
    CHECK(factors == std::vector<double>{3.0 * (9.0 / 18.0), 3.0});
  }
  SUBCASE("no rows") {
    CHECK(backward_factors({}, anchor, {}).empty());
  }
}

TEST_CASE("fetch::FactorChain::continue_backward: the rows before the stored first bar join it without a step") {
  Stored stored;
  FactorChain chain(stored.store);
  // A dividend into 2024-01-02: its pre_close 8 after a close of 9.
  const std::vector rows{
      chain_row("600519.SH", "2023-12-28", 9), chain_row("600519.SH", "2023-12-29", 9, 9),
      chain_row("600519.SH", "2024-01-02", 10, 8), chain_row("600519.SH", "2024-01-03", 11, 10)};
  std::vector before{chain_row("600519.SH", "2023-12-28", 9),
                     chain_row("600519.SH", "2023-12-29", 9, 9)};
  SUBCASE("along the pre_close chain from the stored bar's factor") {
    chain.continue_backward("600519.SH", date("2024-01-02"), rows, {});
    chain.settle(before, {});
    CHECK(before[1].bar.factor == 2.0 * (8.0 / 9.0));
    CHECK(before[0].bar.factor == before[1].bar.factor);
  }
  SUBCASE("along cumulative factors where every row has one") {
    chain.continue_backward("600519.SH", date("2024-01-02"), rows,
                            {{20231228, 1.0}, {20231229, 1.0}, {20240102, 1.25}, {20240103, 1.25}});
    chain.settle(before, {});
    CHECK(before[1].bar.factor == 2.0 * (1.0 / 1.25));
  }
  SUBCASE("rows that do not reach the stored first day start their own chain") {
    chain.continue_backward("600519.SH", date("2024-01-02"), std::span(rows).first(2), {});
    chain.settle(before, {});
    CHECK(before[1].bar.factor == 1.0);
  }
  SUBCASE("rows that start on the stored first day set nothing") {
    chain.continue_backward("600519.SH", date("2024-01-02"), std::span(rows).subspan(2), {});
    chain.settle(before, {});
    CHECK(before[0].bar.factor == 1.0);
  }
}

namespace {

// 510300.SH's whole raw export from the TDX desktop client (tests/data/tdx_standin, provenance in
// its README: GBK, CRLF, a title and a header line, rows YYYY/MM/DD,o,h,l,c,shares,CNY, a source
// line), as TDX's bars: prices in 1/1000 CNY, volume and amount as float32.
std::vector<fetch::tdx::RawBar> etf_510300_export() {
  std::ifstream in(test::data_dir() / "tdx_standin" / "tdx_export_510300.SH_raw_zsh-a.txt", std::ios::binary);
  REQUIRE(in);
  std::vector<fetch::tdx::RawBar> bars;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, ',');) {
      cells.push_back(cell);
    }
    if (cells.size() != 7 || cells[0].size() != 10 || cells[0][4] != '/') {
      continue; // the title, the header and the source line
    }
    const auto mils = [](const std::string& text) { return std::llround(std::stod(text) * 1000); };
    const auto day = std::stoll(cells[0].substr(0, 4) + cells[0].substr(5, 2) + cells[0].substr(8, 2));
    bars.push_back({*domain::Date::from_yyyymmdd(day), mils(cells[1]), mils(cells[2]), mils(cells[3]),
                    mils(cells[4]), std::stof(cells[5]), std::stof(cells[6])});
  }
  return bars;
}

} // namespace

TEST_CASE("fetch::FactorChain: 510300.SH's whole TDX raw export steps on its 12 ex-dates by its dividends (D20)") {
  const auto bars = etf_510300_export();
  REQUIRE(bars.size() == 3003); // 2012-05-28 .. 2024-09-30
  // The dividends recorded in shared/data/real/indices_etfs_turn4/PROVENANCE.md (the steps of TDX's
  // additive 后复权 export, equal to Eastmoney's), CNY per unit in 1/1000, as category-1 events
  // (per 10 units).
  const std::map<std::string, std::int64_t> dividends{
      {"2012-12-18", 33}, {"2014-01-21", 48}, {"2015-01-20", 35}, {"2016-01-20", 51},
      {"2017-01-23", 55}, {"2018-01-23", 46}, {"2019-01-16", 59}, {"2019-12-11", 62},
      {"2021-01-18", 72}, {"2022-01-19", 75}, {"2023-01-16", 64}, {"2024-01-18", 69}};
  std::vector<fetch::tdx::XdxrEvent> events;
  for (const auto& [day, mils] : dividends) {
    fetch::tdx::XdxrEvent event;
    event.market = fetch::tdx::Market::sh;
    event.code = "510300";
    event.day = date(day);
    event.category = fetch::tdx::k_dividends_and_rights;
    event.cash = static_cast<float>(static_cast<double>(mils) / 100.0);
    events.push_back(event);
  }
  auto file = fetch::tdx::rows_of_bars("510300.SH", domain::Kind::fund, bars, events, std::nullopt, date("2026-11-26"));
  CHECK(file.problems.empty());
  REQUIRE(file.rows.size() == bars.size());
  Stored stored;
  FactorChain chain(stored.store);
  chain.settle(file.rows, {});
  std::map<std::string, std::int64_t> stepped;
  for (std::size_t i = 1; i < file.rows.size(); ++i) {
    const auto& row = file.rows[i];
    const auto& before = file.rows[i - 1];
    REQUIRE(row.pre_close);
    if (row.bar.factor == before.bar.factor) {
      CHECK(*row.pre_close == before.bar.close);
      continue;
    }
    CAPTURE(row.bar.trade_date.iso());
    // pre_close to 0.001 CNY: the close before less the dividend, exactly.
    const auto it = dividends.find(row.bar.trade_date.iso());
    REQUIRE(it != dividends.end());
    CHECK(*row.pre_close == static_cast<double>(bars[i - 1].close_mils - it->second) / 1000.0);
    CHECK(row.bar.factor == before.bar.factor * (before.bar.close / *row.pre_close));
    stepped[row.bar.trade_date.iso()] = bars[i - 1].close_mils - std::llround(*row.pre_close * 1000);
  }
  CHECK(stepped == dividends); // exactly the twelve, each by its dividend
  CHECK(file.rows.front().bar.factor == 1.0);
}

TEST_CASE("fetch::FactorChain: a fund's category-11 split steps by its ratio; an index stays at 1 (D20)") {
  using fetch::tdx::RawBar;
  fetch::tdx::XdxrEvent split;
  split.market = fetch::tdx::Market::sz;
  split.code = "169999";
  split.day = date("2023-06-15");
  split.category = fetch::tdx::k_unit_split;
  split.bonus = 3.0f; // 3 new units per old unit (pytdx's suogu)
  const std::vector<RawBar> fund_bars{{date("2023-06-13"), 12'000, 12'300, 11'900, 12'150, 1e6f, 1e7f},
                                      {date("2023-06-14"), 12'150, 12'300, 11'900, 12'000, 1e6f, 1e7f},
                                      {date("2023-06-15"), 4'010, 4'100, 3'950, 4'050, 3e6f, 1e7f}};
  auto fund = fetch::tdx::rows_of_bars("169999.SZ", domain::Kind::fund, fund_bars, std::vector{split},
                                       std::nullopt, date("2026-11-26"));
  REQUIRE(fund.rows.size() == 3);
  Stored stored;
  FactorChain chain(stored.store);
  chain.settle(fund.rows, {});
  CHECK(*fund.rows[2].pre_close == 4.0);
  CHECK(fund.rows[1].bar.factor == 1.0);
  CHECK(fund.rows[2].bar.factor == 12.0 / 4.0); // the ratio
  // An index's rows get 1 whatever their pre_close says (a rebased index, Tushare's 1000.0 on
  // 000300.SH's first day).
  std::vector index{chain_row("000300.SH", "2005-01-04", 982.794, 1000.0),
                    chain_row("000300.SH", "2005-01-05", 992.564, 900.0)};
  chain.settle(index, {});
  CHECK(index[0].bar.factor == 1.0);
  CHECK(index[1].bar.factor == 1.0);
  // The same rows of a stock chain as D18 says.
  std::vector stock{chain_row("000001.SZ", "2005-01-04", 982.794, 1000.0),
                    chain_row("000001.SZ", "2005-01-05", 992.564, 900.0)};
  chain.settle(stock, {});
  CHECK(stock[1].bar.factor == 982.794 / 900.0);
}
