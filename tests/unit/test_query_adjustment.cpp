#include "testutil.hpp"

#include "core/query/adjustment.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace ashare;
using query::round4;
using test::make_bar;

TEST_CASE("D8: query::round4 rounds the double half away from zero") {
  const struct {
    double x;
    double expected;
  } table[] = {
      // x * 10000 is exactly k + 0.5 for these (binary fractions): half away from zero, not to
      // even.
      {0.03125, 0.0313},
      {-0.03125, -0.0313},
      {1.03125, 1.0313},
      {0.09375, 0.0938},
      // Decimal-looking ties are decided by the double as given (D8: "on the double x").
      {1.00005, 1.0001},   // 1.00005 * 10000 = 10000.500000000002
      {12.34565, 12.3456}, // 12.34565 * 10000 = 123456.49999999999
      {2.675, 2.675},
      {1525.4, 1525.4},
      {12.345678, 12.3457},
      {-12.345678, -12.3457},
      {0.00004, 0.0},
      {1e-9, 0.0},
  };
  for (const auto& row : table) {
    CAPTURE(row.x);
    CHECK(round4(row.x) == row.expected);
  }
}

TEST_CASE("D8: query::adjust_forward") {
  SUBCASE("prices are round4(raw * factor / latest); the rest is unchanged") {
    auto raw = make_bar("2023-09-25", 1847.5, 1848.0, 1826.59, 1832.38, 7.768, 1397913);
    raw.turnover = 2565773540;
    raw.change_pct = -0.8989;
    const auto adjusted = query::adjust_forward(raw, 8.305);
    CHECK(adjusted.open == 1728.0409);
    CHECK(adjusted.close == 1713.8986);
    CHECK(adjusted.high == 1728.5086);
    CHECK(adjusted.low == 1708.483);
    CHECK(adjusted.trade_date == raw.trade_date);
    CHECK(adjusted.volume == 1397913);
    CHECK(adjusted.turnover == 2565773540.0);
    CHECK(adjusted.change_pct == -0.8989);
    CHECK(adjusted.factor == 7.768);
  }

  SUBCASE("a bar at the latest factor keeps its raw prices") {
    const auto raw = make_bar("2025-10-23", 1455.0, 1468.8, 1447.2, 1467.98, 8.305);
    const auto adjusted = query::adjust_forward(raw, 8.305);
    CHECK(adjusted.open == 1455.0);
    CHECK(adjusted.high == 1468.8);
    CHECK(adjusted.low == 1447.2);
    CHECK(adjusted.close == 1467.98);
  }

  SUBCASE("evaluated as (price * factor) / latest, never price * (factor / latest)") {
    // Found by a search over 2-decimal prices and 3-decimal factors: the two evaluation orders
    // round to different 4-decimal values for these.
    const struct {
      double price;
      double factor;
      double latest;
      double expected;    // round4((price * factor) / latest)
      double precomputed; // round4(price * (factor / latest)), what D8 rules out
    } table[] = {
        {211.53, 6.702, 4.4, 322.1987, 322.1986},      // exact decimal 322.19865
        {227.70, 9.393, 4.048, 528.3563, 528.3562},    // exact decimal 528.35625
        {1013.46, 8.450, 4.064, 2107.2187, 2107.2188}, // exact 2107.21875, the double is below it
    };
    for (const auto& row : table) {
      CAPTURE(row.price);
      const auto adjusted = query::adjust_forward(
          make_bar("2024-01-02", row.price, row.price, row.price, row.price, row.factor),
          row.latest);
      CHECK(adjusted.open == row.expected);
      CHECK(adjusted.high == row.expected);
      CHECK(adjusted.low == row.expected);
      CHECK(adjusted.close == row.expected);
      // The case discriminates: the other order really gives another value.
      CHECK(round4(row.price * (row.factor / row.latest)) == row.precomputed);
      CHECK(row.precomputed != row.expected);
    }
  }

  SUBCASE("adjusted_price is the unrounded value") {
    CHECK(query::adjusted_price(10.0, 2.0, 4.0) == 5.0);
    CHECK(query::adjusted_price(211.53, 6.702, 4.4) == (211.53 * 6.702) / 4.4);
  }
}

TEST_CASE("D8: query::round4 is std::round(x * 10000) / 10000, bit for bit") {
  std::mt19937_64 random(8);
  const auto reference = [](double x) { return std::round(x * 10000) / 10000; };
  const auto same = [](double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b)
           || (std::isnan(a) && std::isnan(b));
  };
  for (const double x : {0.0, -0.0, 0.00005, -0.00005, 0.00004999999999999999, 1.00005, 2.5e-5,
                         -2.5e-5, 450359962737.0496, 1e300, -1e300, 5e-324,
                         std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(), 0.49999999999999994 / 10000}) {
    CAPTURE(x);
    CHECK(same(round4(x), reference(x)));
  }
  for (int i = 0; i < 200'000; ++i) {
    // Halfway points, their neighbours, and doubles of every magnitude.
    const double half = (static_cast<double>(static_cast<std::int64_t>(random() % 2'000'000'000) - 1'000'000'000) + 0.5) / 10000;
    const double any = std::bit_cast<double>(random());
    for (const double x : {half, std::nextafter(half, 0.0), std::nextafter(half, 1e9), any}) {
      CAPTURE(x);
      REQUIRE(same(round4(x), reference(x)));
    }
  }
}

TEST_CASE("D8: query::adjust_units is adjust_price of units / 10000, bit for bit") {
  const auto check = [](std::int64_t units, double factor, double latest) {
    const auto expected = query::adjust_price(static_cast<double>(units) / 10000, factor, latest);
    const auto got = query::adjust_units(units, factor, latest, factor / latest);
    CAPTURE(units);
    CAPTURE(factor);
    CAPTURE(latest);
    REQUIRE(std::bit_cast<std::uint64_t>(got.value) == std::bit_cast<std::uint64_t>(expected.value));
    REQUIRE(got.ten_thousandths == expected.ten_thousandths);
  };
  SUBCASE("the cases that separate D8's order from a precomputed ratio") {
    check(2115300, 6.702, 4.4);
    check(2277000, 9.393, 4.048);
    check(10134600, 8.450, 4.064);
  }
  SUBCASE("exact halves, where the shortcut must give way to D8's evaluation") {
    // factor / latest of a few bits makes units * ratio land on k + 0.5 exactly.
    for (const double ratio_half : {0.5, 1.5, 0.25, 0.75, 0.125}) {
      for (std::int64_t units = 1; units < 5000; units += 1) {
        check(units, ratio_half, 1.0);
        check(-units, ratio_half, 1.0);
        check(units, 3 * ratio_half, 3.0); // the ratio rounded, D8 not
      }
    }
  }
  SUBCASE("the latest factor itself, zero, and the edges of the shortcut") {
    for (const std::int64_t units : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1},
                                     std::int64_t{1} << 40, (std::int64_t{1} << 40) - 1,
                                     std::int64_t{1} << 52, std::int64_t{999'999'999'999'999}}) {
      check(units, 8.305, 8.305);
      check(units, 1.0, 8.305);
      check(units, 8.305, 1.0);
      check(units, 1e-200, 1e200); // a ratio outside the shortcut's range
    }
  }
  SUBCASE("2-decimal prices and 3-decimal factors, as vendors write them, and any value") {
    std::mt19937_64 random(11);
    for (int i = 0; i < 300'000; ++i) {
      const auto units = static_cast<std::int64_t>(random() % 50'000'000) * 100; // to 500,000 yuan
      const double factor = static_cast<double>(1 + random() % 20'000) / 1000;
      const double latest = static_cast<double>(1 + random() % 20'000) / 1000;
      check(units, factor, latest);
      check(static_cast<std::int64_t>(random() % 20'000'000'000) - 10'000'000'000, factor, latest);
    }
  }
}
