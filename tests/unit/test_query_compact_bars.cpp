// query::CompactBars (issue 11, P5): every bar reads back bit for bit (D12), whatever its values,
// and a window reads what filtering the whole history reads.
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/query/compact_bars.hpp"
#include "core/query/history.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

using namespace ashare;
using test::date;
using test::same_bits;

namespace {

// Check that `exact` holds the numbers of `bar` as whole 1/10000s where it holds them, and return
// how many of its four prices it holds.
int check_exact(const domain::Bar& bar, const domain::BarTenThousandths& exact) {
  int prices = 0;
  const auto check = [](double value, std::int64_t whole) {
    if (whole == domain::BarTenThousandths::k_not_whole) {
      return 0;
    }
    CAPTURE(value);
    CAPTURE(whole);
    CHECK(std::bit_cast<std::uint64_t>(static_cast<double>(whole) / 10000)
          == std::bit_cast<std::uint64_t>(value));
    return 1;
  };
  prices += check(bar.open, exact.open) + check(bar.high, exact.high) + check(bar.low, exact.low)
            + check(bar.close, exact.close);
  check(bar.turnover, exact.turnover);
  check(bar.change_pct, exact.change_pct);
  check(bar.factor, exact.factor);
  return prices;
}

// Check that `bars` read back bit for bit, with their numbers as whole 1/10000s; return how many
// prices were whole.
std::size_t check_round_trip(const std::vector<domain::Bar>& bars) {
  const auto compact = query::CompactBars::encode(bars);
  CHECK(compact.size() == bars.size());
  const auto back = compact.decode_all();
  REQUIRE(back.size() == bars.size());
  std::vector<domain::Bar> ranged;
  std::vector<domain::BarTenThousandths> exact;
  if (!bars.empty()) {
    compact.decode_range(bars.front().trade_date, bars.back().trade_date, ranged, &exact);
  }
  REQUIRE(ranged.size() == bars.size());
  REQUIRE(exact.size() == bars.size());
  std::size_t whole_prices = 0;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    CAPTURE(i);
    CHECK(same_bits(back[i], bars[i]));
    CHECK(same_bits(ranged[i], bars[i]));
    whole_prices += static_cast<std::size_t>(check_exact(bars[i], exact[i]));
  }
  return whole_prices;
}

std::vector<domain::Bar> fixture_bars(const char* file, const char* symbol) {
  const test::StoreBackend stores;
  stores.import_fixture(file);
  return query::load_all_bars(*stores.open_bars(), symbol);
}

// Bars of every kind: whole 1/10000s of every size and sign, values that are not (17 digits,
// 0.1 + 0.2, -0.0, the largest and smallest doubles), factors that change often and rarely, gaps
// of a day to years between dates, and more bars than one block.
std::vector<domain::Bar> awkward_bars() {
  std::mt19937_64 random(11);
  std::vector<domain::Bar> bars;
  auto day = date("1991-04-03");
  double factor = 1;
  const double specials[] = {0.1 + 0.2,
                             1.2345678901234567,
                             -0.0,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::denorm_min(),
                             900719925474.0993,
                             -12.5,
                             1e-5,
                             0.0001};
  for (int i = 0; i < 300; ++i) {
    const int gap = i % 50 == 49 ? 800 : i % 17 == 16 ? 31 : 1 + static_cast<int>(random() % 4);
    day = day.plus_days(gap);
    const double close = static_cast<double>(100 + random() % 9000000) / 100;
    auto bar = test::make_bar(day.iso(), close - 0.37, close + 1.5, close - 2.25, close, factor,
                              static_cast<std::int64_t>(random() % 100'000'000) * 100);
    bar.turnover = static_cast<double>(random() % 10'000'000'000) / 1000;
    bar.change_pct = static_cast<double>(static_cast<std::int64_t>(random() % 40000) - 20000) / 1e4;
    if (i % 7 == 3) {
      double* fields[] = {&bar.open, &bar.high, &bar.low, &bar.close, &bar.turnover,
                          &bar.change_pct};
      *fields[random() % 6] = specials[random() % std::size(specials)];
    }
    if (i % 11 == 5) {
      bar.volume = i % 2 == 0 ? std::numeric_limits<std::int64_t>::max() : 7;
    }
    if (i % 13 == 0 || (i > 200 && i < 210)) {
      factor *= 1 + static_cast<double>(random() % 1000) / 1e5; // 17 digits
    }
    bar.factor = factor;
    bars.push_back(bar);
  }
  return bars;
}

} // namespace

TEST_CASE("query::CompactBars: every bar reads back bit for bit (D12)") {
  SUBCASE("real histories, about a tenth of their size") {
    for (const auto& [file, symbol] :
         {std::pair{"bancob_600519.SH.csv", "600519.SH"}, {"jenny_000001.SZ.csv", "000001.SZ"},
          {"bancob_002594.SZ.csv", "002594.SZ"}}) {
      CAPTURE(symbol);
      const auto bars = fixture_bars(file, symbol);
      REQUIRE(bars.size() > 100);
      // Vendors' prices have 2 or 3 decimals: all of them written from their digits.
      CHECK(check_round_trip(bars) == 4 * bars.size());
      const auto compact = query::CompactBars::encode(bars);
      CHECK(compact.bytes() < bars.size() * sizeof(domain::Bar) / 3);
      MESSAGE(std::string(symbol) << ": " << static_cast<double>(compact.bytes()) / static_cast<double>(bars.size())
                     << " bytes a bar");
    }
  }
  SUBCASE("values that are not whole 1/10000s, far dates, changing factors") {
    const auto bars = awkward_bars();
    const auto whole_prices = check_round_trip(bars);
    CHECK(whole_prices > 0);
    CHECK(whole_prices < 4 * bars.size()); // the specials are not
  }
  SUBCASE("no bars, one bar, exactly one block and one more") {
    const auto bars = awkward_bars();
    for (const std::size_t count : {std::size_t{0}, std::size_t{1}, query::CompactBars::k_block_bars,
                                    query::CompactBars::k_block_bars + 1}) {
      CAPTURE(count);
      check_round_trip(std::vector<domain::Bar>(bars.begin(), bars.begin() + static_cast<std::ptrdiff_t>(count)));
    }
  }
}

TEST_CASE("query::CompactBars::read_window answers what query::read_window over "
          "BarStore::load_bars answers, with whole 1/10000s beside (D8, issue 11 P5)") {
  const test::StoreBackend stores;
  stores.import_fixture("bancob_600519.SH.csv"); // factors step 4 times
  const auto store = stores.open_bars();
  const std::string symbol = "600519.SH";
  const auto all = query::load_all_bars(*store, symbol);
  const double latest_factor = all.back().factor;
  const auto compact = query::CompactBars::encode(all);
  std::mt19937_64 random(3);
  const auto first = date("2018-01-01");
  for (int i = 0; i < 400; ++i) {
    query::BarQuery query;
    query.symbols = {*domain::parse_symbol(symbol)};
    query.from = first.plus_days(static_cast<int>(random() % 3400));
    query.to = query.from.plus_days(static_cast<int>(random() % 800) - 30); // some inverted
    query.sort = random() % 2 == 0 ? domain::SortOrder::asc : domain::SortOrder::desc;
    query.limit = i % 3 == 0 ? 5000 : static_cast<std::int64_t>(random() % 300);
    query.adjusted = random() % 2 == 0;
    query.include_summary = random() % 2 == 0;
    CAPTURE(query.from.iso());
    CAPTURE(query.to.iso());
    CAPTURE(query.limit);
    CAPTURE(query.adjusted);
    const auto expected = query::read_window(
      symbol,
      [&](domain::Date from, domain::Date to, domain::SortOrder order, std::int64_t limit) {
        return store->load_bars(symbol, from, to, order, limit);
      },
      query, latest_factor);
    const auto got = compact.read_window(symbol, query, latest_factor);
    CHECK(got.item.symbol == symbol);
    CHECK(got.item.known);
    CHECK(got.item.has_more == expected.has_more);
    REQUIRE(got.item.bars.size() == expected.bars.size());
    REQUIRE(got.exact.size() == expected.bars.size());
    for (std::size_t k = 0; k < got.item.bars.size(); ++k) {
      CHECK(same_bits(got.item.bars[k], expected.bars[k]));
      // D8's adjusted prices are always whole 1/10000s, and so are this vendor's raw ones.
      CHECK(check_exact(got.item.bars[k], got.exact[k]) == 4);
    }
    REQUIRE(got.item.summary.has_value() == expected.summary.has_value());
    if (expected.summary) {
      CHECK(got.item.summary->bars_count == expected.summary->bars_count);
      CHECK(got.item.summary->open_first == expected.summary->open_first);
      CHECK(got.item.summary->close_last == expected.summary->close_last);
      CHECK(got.item.summary->return_pct == expected.summary->return_pct);
    }
  }
}
