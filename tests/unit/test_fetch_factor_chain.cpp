#include "testutil.hpp"

#include "core/fetch/factor_chain.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

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
