// query::CompactBars (issue 11, P5): every bar reads back bit for bit (D12), whatever its values,
// and a window reads what filtering the whole history reads.
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

namespace {

// Return whether `a` and `b` hold the same bits in every field.
bool same_bits(const domain::Bar& a, const domain::Bar& b) {
  const auto bits = [](double value) { return std::bit_cast<std::uint64_t>(value); };
  return a.trade_date == b.trade_date && bits(a.open) == bits(b.open)
         && bits(a.high) == bits(b.high) && bits(a.low) == bits(b.low)
         && bits(a.close) == bits(b.close) && a.volume == b.volume
         && bits(a.turnover) == bits(b.turnover) && bits(a.change_pct) == bits(b.change_pct)
         && bits(a.factor) == bits(b.factor);
}

void check_round_trip(const std::vector<domain::Bar>& bars) {
  const auto compact = query::CompactBars::encode(bars);
  CHECK(compact.size() == bars.size());
  const auto back = compact.decode_all();
  REQUIRE(back.size() == bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {
    CAPTURE(i);
    CHECK(same_bits(back[i], bars[i]));
  }
}

std::vector<domain::Bar> fixture_bars(const char* file, const char* symbol) {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  test::import_fixture(store, file);
  return query::load_all_bars(store, symbol);
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
      check_round_trip(bars);
      const auto compact = query::CompactBars::encode(bars);
      CHECK(compact.bytes() < bars.size() * sizeof(domain::Bar) / 3);
      MESSAGE(std::string(symbol) << ": " << static_cast<double>(compact.bytes()) / static_cast<double>(bars.size())
                     << " bytes a bar");
    }
  }
  SUBCASE("values that are not whole 1/10000s, far dates, changing factors") {
    check_round_trip(awkward_bars());
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

TEST_CASE("query::CompactBars::load_bars reads what BarStore::load_bars reads") {
  test::TempDir dir;
  store::BarStore store(dir / "ashare.db");
  test::import_fixture(store, "bancob_600519.SH.csv");
  const auto compact = query::CompactBars::encode(query::load_all_bars(store, "600519.SH"));
  std::mt19937_64 random(3);
  const auto first = date("2018-01-01");
  for (int i = 0; i < 300; ++i) {
    const auto from = first.plus_days(static_cast<int>(random() % 3400));
    const auto to = from.plus_days(static_cast<int>(random() % 800) - 30); // some inverted
    const auto order = random() % 2 == 0 ? domain::SortOrder::asc : domain::SortOrder::desc;
    const std::int64_t limit = i % 3 == 0 ? 5000 : static_cast<std::int64_t>(random() % 300);
    CAPTURE(from.iso());
    CAPTURE(to.iso());
    CAPTURE(limit);
    const auto expected = store.load_bars("600519.SH", from, to, order, limit);
    const auto got = compact.load_bars(from, to, order, limit);
    REQUIRE(got.size() == expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      CHECK(same_bits(got[k], expected[k]));
    }
  }
}
