#include "core/indicators/ema.hpp"
#include "core/indicators/rsi.hpp"
#include "core/indicators/sma.hpp"
#include "indicator_fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

using namespace ashare;
using namespace ashare::indicator_fixtures;

namespace {

bool all_nan(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double x) { return std::isnan(x); });
}

// Return values[from..] (the part after the warm-up), or an empty vector.
std::vector<double> tail(const std::vector<double>& values, std::size_t from) {
  if (from >= values.size()) {
    return {};
  }
  return {values.begin() + static_cast<std::ptrdiff_t>(from), values.end()};
}

std::vector<double> ramp(int count, double first, double step) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(first + step * i);
  }
  return out;
}

// --- TA-Lib's values of SMA, EMA and RSI (indicator_fixtures.hpp) -------------------------------

constexpr std::array<int, 5> k_windows{2, 5, 14, 50, 200};

struct Indicator {
  std::string_view name;
  std::vector<double> (*compute)(std::span<const double>, int);
  int (*lookback)(int);
};

constexpr std::array<Indicator, 3> k_indicators{{
    {"sma", indicators::sma, indicators::sma_lookback},
    {"ema", indicators::ema, indicators::ema_lookback},
    {"rsi", indicators::rsi, indicators::rsi_lookback},
}};

// Compare `indicator` over every series_type and window of `history` with TA-Lib's values in
// talib/<symbol>_<raw|adjusted>_<indicator>.csv (written by talib/generate.mjs): one row per
// trade_date, a column <series_type>_<window> per series, empty in the warm-up.
void check_against_talib(const History& history, Mode mode, const Indicator& indicator) {
  const auto fixture = history.symbol + (mode == Mode::raw ? "_raw_" : "_adjusted_")
                       + std::string(indicator.name) + ".csv";
  CAPTURE(fixture);
  const auto table = read_talib(fixture, history);
  std::vector<std::string> expected_header{"trade_date"};
  for (std::size_t t = 0; t < k_series_types.size(); ++t) {
    for (const int window : k_windows) {
      const auto name = std::string(k_series_types[t]) + "_" + std::to_string(window);
      expected_header.push_back(name);
      check_column(table, name, indicator.compute(history.series[t], window),
                   static_cast<std::size_t>(indicator.lookback(window)));
    }
  }
  CHECK(table.header == expected_header);
}

void check_against_talib(const std::string& file, Mode mode) {
  const auto history = load_history(file, mode);
  // Enough history for every window's first value, so the fixtures check the steady state too.
  REQUIRE(history.dates.size() > static_cast<std::size_t>(k_windows.back()) + 1);
  for (const auto& indicator : k_indicators) {
    check_against_talib(history, mode, indicator);
  }
}

} // namespace

TEST_CASE("indicators::sma")
{
  static_assert(indicators::sma_lookback(1) == 0);
  static_assert(indicators::sma_lookback(14) == 13);

  SUBCASE("mean of the last `window` points, NaN in the warm-up")
  {
    const std::vector<double> closes{10, 11, 12, 13};
    const auto out = indicators::sma(closes, 3);
    REQUIRE(out.size() == closes.size());
    CHECK(std::isnan(out[0]));
    CHECK(std::isnan(out[1]));
    CHECK(out[2] == 11.0); // (10 + 11 + 12) / 3
    CHECK(out[3] == 12.0); // (11 + 12 + 13) / 3
  }
  SUBCASE("window 1 is the input")
  {
    const std::vector<double> closes{1832.38, 1816.0, 0.01, 7.25, 1e6, 3.0};
    CHECK(indicators::sma(closes, 1) == closes);
  }
  SUBCASE("a window as long as the series gives one value, at the end")
  {
    const std::vector<double> closes{1, 2, 4, 8};
    const auto out = indicators::sma(closes, 4);
    CHECK(all_nan({out.begin(), out.end() - 1}));
    CHECK(out.back() == 3.75);
  }
  SUBCASE("a window longer than the series gives only NaN")
  {
    const std::vector<double> closes{1, 2, 3};
    const auto out = indicators::sma(closes, 4);
    CHECK(out.size() == 3);
    CHECK(all_nan(out));
    CHECK(indicators::sma({}, 5).empty());
  }
  SUBCASE("a constant series gives the constant")
  {
    const std::vector<double> closes(300, 7.25);
    for (const int window : {1, 2, 5, 14, 50, 200, 300}) {
      CAPTURE(window);
      const auto out = indicators::sma(closes, window);
      CHECK(all_nan({out.begin(), out.begin() + window - 1}));
      const auto values = tail(out, static_cast<std::size_t>(window - 1));
      CHECK(values == std::vector<double>(values.size(), 7.25));
    }
  }
}

TEST_CASE("indicators::ema")
{
  static_assert(indicators::ema_lookback(1) == 0);
  static_assert(indicators::ema_lookback(50) == 49);

  SUBCASE("seeded with the mean of the first window, then k*x + (1-k)*previous")
  {
    // k = 2 / (3 + 1) = 0.5: EMA[2] = (2 + 4 + 6) / 3 = 4; then 0.5*1 + 0.5*4 = 2.5,
    // 0.5*9 + 0.5*2.5 = 5.75, 0.5*9 + 0.5*5.75 = 7.375 (all exact in binary).
    const std::vector<double> closes{2, 4, 6, 1, 9, 9};
    const auto out = indicators::ema(closes, 3);
    REQUIRE(out.size() == closes.size());
    CHECK(std::isnan(out[0]));
    CHECK(std::isnan(out[1]));
    CHECK(out[2] == 4.0);
    CHECK(out[3] == 2.5);
    CHECK(out[4] == 5.75);
    CHECK(out[5] == 7.375);
  }
  SUBCASE("k = 2/3 for window 2")
  {
    // EMA[1] = (10 + 11) / 2 = 10.5; EMA[2] = 2/3*9 + 1/3*10.5 = 9.5;
    // EMA[3] = 2/3*12 + 1/3*9.5 = 33.5/3; EMA[4] = 2/3*8 + 1/3*33.5/3 = 81.5/9.
    const std::vector<double> closes{10, 11, 9, 12, 8};
    const auto out = indicators::ema(closes, 2);
    CHECK(std::isnan(out[0]));
    CHECK(out[1] == 10.5);
    CHECK(out[2] == doctest::Approx(9.5).epsilon(1e-15));
    CHECK(out[3] == doctest::Approx(33.5 / 3).epsilon(1e-15));
    CHECK(out[4] == doctest::Approx(81.5 / 9).epsilon(1e-15));
  }
  SUBCASE("window 1 is the input")
  {
    // k = 1: k*x + (1-k)*previous is x exactly, also across jumps (a bonus issue in raw prices)
    // where TA-Lib's form (x - previous)*k + previous would round (0.3 after 1e6).
    const std::vector<double> closes{1832.38, 1816.0, 0.1, 0.7, 0.1, 3.3, 0.01, 1e6, 0.3, 7.25};
    CHECK(indicators::ema(closes, 1) == closes);
  }
  SUBCASE("a window longer than the series gives only NaN")
  {
    const std::vector<double> closes{1, 2, 3};
    CHECK(all_nan(indicators::ema(closes, 4)));
    CHECK(std::isnan(indicators::ema(closes, 3)[1]));
    CHECK(indicators::ema(closes, 3)[2] == 2.0);
    CHECK(indicators::ema({}, 5).empty());
  }
  SUBCASE("a constant series gives the constant")
  {
    const std::vector<double> closes(300, 7.25);
    for (const int window : {1, 2, 5, 14, 50, 200, 300}) {
      CAPTURE(window);
      const auto out = indicators::ema(closes, window);
      CHECK(all_nan({out.begin(), out.begin() + window - 1}));
      const auto values = tail(out, static_cast<std::size_t>(window - 1));
      CHECK(values == std::vector<double>(values.size(), 7.25));
    }
  }
}

TEST_CASE("indicators::rsi")
{
  static_assert(indicators::rsi_lookback(1) == 1);
  static_assert(indicators::rsi_lookback(14) == 14);

  SUBCASE("Wilder's averages of gains and losses")
  {
    // d = 2, -1, 2, 0, -4. Window 2: first averages gain (2 + 0) / 2 = 1, loss (0 + 1) / 2 = 0.5,
    // RSI 100 * 1 / 1.5 = 200/3. Then gain (1*1 + 2) / 2 = 1.5, loss 0.25: 600/7;
    // gain 0.75, loss 0.125: 600/7; gain 0.375, loss (0.125 + 4) / 2 = 2.0625: 200/13.
    const std::vector<double> closes{44, 46, 45, 47, 47, 43};
    const auto out = indicators::rsi(closes, 2);
    REQUIRE(out.size() == closes.size());
    CHECK(std::isnan(out[0]));
    CHECK(std::isnan(out[1]));
    CHECK(out[2] == doctest::Approx(200.0 / 3).epsilon(1e-15));
    CHECK(out[3] == doctest::Approx(600.0 / 7).epsilon(1e-15));
    CHECK(out[4] == doctest::Approx(600.0 / 7).epsilon(1e-15));
    CHECK(out[5] == doctest::Approx(200.0 / 13).epsilon(1e-15));
  }
  SUBCASE("window 1: 100 on a rise, 0 on a fall, 0 when flat (D9's closed form)")
  {
    const std::vector<double> closes{10, 10.5, 10.2, 10.2, 11, 9, 9};
    const auto out = indicators::rsi(closes, 1);
    REQUIRE(out.size() == closes.size());
    CHECK(std::isnan(out[0]));
    CHECK(tail(out, 1) == std::vector<double>{100, 0, 0, 100, 0, 0});
  }
  SUBCASE("a window as long as the series gives only NaN; one shorter gives one value")
  {
    const std::vector<double> closes{1, 2, 3};
    CHECK(all_nan(indicators::rsi(closes, 3)));
    CHECK(all_nan(indicators::rsi(closes, 4)));
    const auto out = indicators::rsi(closes, 2);
    CHECK(all_nan({out.begin(), out.end() - 1}));
    CHECK(out.back() == 100.0);
    CHECK(indicators::rsi({}, 14).empty());
    const auto single = indicators::rsi(std::vector<double>{5}, 1);
    CHECK(single.size() == 1);
    CHECK(std::isnan(single[0]));
  }
  SUBCASE("a constant series gives 0: both averages are 0 (D9)")
  {
    const std::vector<double> closes(300, 7.25);
    for (const int window : {1, 2, 5, 14, 50, 200, 299}) {
      CAPTURE(window);
      const auto out = indicators::rsi(closes, window);
      CHECK(all_nan({out.begin(), out.begin() + window}));
      const auto values = tail(out, static_cast<std::size_t>(window));
      CHECK(values == std::vector<double>(values.size(), 0.0));
    }
  }
  SUBCASE("a strictly rising series gives 100, a strictly falling one 0")
  {
    const auto rising = ramp(300, 10.0, 0.01);
    const auto falling = ramp(300, 10.0, -0.01);
    for (const int window : {1, 2, 5, 14, 50, 200}) {
      CAPTURE(window);
      const auto up = tail(indicators::rsi(rising, window), static_cast<std::size_t>(window));
      const auto down = tail(indicators::rsi(falling, window), static_cast<std::size_t>(window));
      CHECK(up == std::vector<double>(up.size(), 100.0));
      CHECK(down == std::vector<double>(down.size(), 0.0));
    }
  }
}

TEST_CASE("D9: values equal TA-Lib's")
{
  // TA_SMA, TA_EMA and TA_RSI (default compatibility, unstable period 0) of TA-Lib's C code, run by
  // tests/data/talib/generate.mjs over these fixtures; windows 2, 5, 14, 50 and 200 of each
  // series_type. Every value must match to 1e-9 relative, with exactly the lookback's warm-up.
  SUBCASE("600519.SH raw")
  {
    check_against_talib("bancob_600519.SH.csv", Mode::raw);
  }
  SUBCASE("600519.SH forward-adjusted, unrounded (factor steps in the history)")
  {
    check_against_talib("bancob_600519.SH.csv", Mode::adjusted);
  }
  SUBCASE("000001.SZ raw (1212 bars)")
  {
    check_against_talib("jenny_000001.SZ.csv", Mode::raw);
  }
}
