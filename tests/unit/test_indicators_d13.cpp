// D13's indicators in both conventions: `talib` against TA-Lib's own values (tests/data/talib,
// written by talib/generate.mjs from the pinned WebAssembly build), `tdx` against tables worked by
// hand from D13's recurrences and against an independent implementation below.
#include "core/indicators/atr.hpp"
#include "core/indicators/bbands.hpp"
#include "core/indicators/ema.hpp"
#include "core/indicators/kdj.hpp"
#include "core/indicators/macd.hpp"
#include "core/indicators/rsi.hpp"
#include "core/indicators/sma.hpp"
#include "core/indicators/tdx_sma.hpp"
#include "indicator_fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::indicator_fixtures;

namespace {

constexpr std::size_t k_open = 0, k_high = 1, k_low = 2, k_close = 3; // in k_series_types

std::string fixture_name(const History& history, Mode mode, const std::string& indicator) {
  return history.symbol + (mode == Mode::raw ? "_raw_" : "_adjusted_") + indicator + ".csv";
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) {
    out += (out.empty() ? "" : "_") + part;
  }
  return out;
}

void check_talib_d13(const std::string& file, Mode mode) {
  const auto history = load_history(file, mode);
  const auto& high = history.series[k_high];
  const auto& low = history.series[k_low];
  const auto& close = history.series[k_close];
  SUBCASE("MACD: TA_MACD(fast, slow, signal) of every series_type") {
    const auto table = read_talib(fixture_name(history, mode, "macd"), history);
    CHECK(table.header.size() == 1 + 4 * 4 * 3);
    for (std::size_t t = 0; t < k_series_types.size(); ++t) {
      for (const auto& [fast, slow, signal] :
           std::vector<std::array<int, 3>>{{12, 26, 9}, {6, 13, 5}, {2, 3, 2}, {5, 50, 20}}) {
        const auto name = join({std::string(k_series_types[t]), std::to_string(fast),
                                std::to_string(slow), std::to_string(signal)});
        const auto lines = indicators::macd(history.series[t], fast, slow, signal);
        const auto lookback = static_cast<std::size_t>(indicators::macd_lookback(slow, signal));
        check_column(table, name + "_macd", lines.macd, lookback);
        check_column(table, name + "_signal", lines.signal, lookback);
        check_column(table, name + "_hist", lines.histogram, lookback);
      }
    }
  }
  SUBCASE("BBANDS: TA_BBANDS(window, k, k, SMA) of every series_type") {
    const auto table = read_talib(fixture_name(history, mode, "bbands"), history);
    CHECK(table.header.size() == 1 + 4 * 4 * 3);
    struct Set {
      int window;
      double k;
      std::string k_text; // as the generator's String(k)
    };
    for (std::size_t t = 0; t < k_series_types.size(); ++t) {
      for (const auto& set : {Set{20, 2, "2"}, Set{5, 1.5, "1.5"}, Set{2, 1, "1"},
                              Set{50, 2.5, "2.5"}}) {
        const auto name =
          join({std::string(k_series_types[t]), std::to_string(set.window), set.k_text});
        const auto bands = indicators::bbands(history.series[t], set.window, set.k);
        const auto lookback = static_cast<std::size_t>(set.window - 1);
        check_column(table, name + "_upper", bands.upper, lookback);
        check_column(table, name + "_middle", bands.middle, lookback);
        check_column(table, name + "_lower", bands.lower, lookback);
      }
    }
  }
  SUBCASE("ATR: TA_ATR(window) of high, low and close") {
    const auto table = read_talib(fixture_name(history, mode, "atr"), history);
    CHECK(table.header.size() == 1 + 5);
    for (const int window : {1, 2, 5, 14, 50}) {
      check_column(table, join({"atr", std::to_string(window), "value"}),
                   indicators::atr(high, low, close, window),
                   static_cast<std::size_t>(indicators::atr_lookback(window)));
    }
  }
  SUBCASE("KDJ: K and D of TA_STOCH(n, m1, SMA, m2, SMA), J = 3K - 2D") {
    const auto table = read_talib(fixture_name(history, mode, "stoch"), history);
    CHECK(table.header.size() == 1 + 5 * 2);
    for (const auto& [n, m1, m2] : std::vector<std::array<int, 3>>{
           {9, 3, 3}, {5, 3, 3}, {14, 1, 1}, {1, 1, 1}, {20, 5, 7}}) {
      const auto name = join({"stoch", std::to_string(n), std::to_string(m1), std::to_string(m2)});
      const auto lines = indicators::kdj(high, low, close, n, m1, m2);
      const auto lookback = static_cast<std::size_t>(indicators::kdj_lookback(n, m1, m2));
      check_column(table, name + "_k", lines.k, lookback);
      check_column(table, name + "_d", lines.d, lookback);
      std::size_t j_problems = 0;
      for (std::size_t i = 0; i < lines.j.size(); ++i) {
        const double j = 3 * lines.k[i] - 2 * lines.d[i];
        j_problems += (std::isnan(j) ? std::isnan(lines.j[i]) : lines.j[i] == j) ? 0 : 1;
      }
      CHECK(j_problems == 0);
    }
  }
}

// --- An independent reading of D13's tdx recurrences, written differently on purpose ----------

std::vector<double> reference_tdx_ema(const std::vector<double>& x, int n) {
  std::vector<double> y{x.at(0)};
  for (std::size_t i = 1; i < x.size(); ++i) {
    y.push_back(y.back() + 2.0 * (x[i] - y.back()) / (n + 1.0));
  }
  return y;
}

std::vector<double> reference_tdx_sma(const std::vector<double>& x, int n, int m) {
  std::vector<double> y{x.at(0)};
  for (std::size_t i = 1; i < x.size(); ++i) {
    y.push_back(y.back() + m * (x[i] - y.back()) / n);
  }
  return y;
}

// The mean of x[i-n+1..i], summed from the newest.
double reference_mean(const std::vector<double>& x, std::size_t i, int n) {
  double sum = 0;
  for (int back = 0; back < n; ++back) {
    sum += x[i - static_cast<std::size_t>(back)];
  }
  return sum / n;
}

struct Reference {
  std::vector<double> rsi, dif, dea, histogram, middle, upper, lower, atr, k, d, j;
};

// D13's tdx indicators over bars `h`, `l`, `c`: RSI(n), MACD(fast, slow, signal), BOLL(n, width),
// ATR(n), KDJ(n, m1, m2), NaN where D13 gives no value.
Reference reference_tdx(const std::vector<double>& h,
                        const std::vector<double>& l,
                        const std::vector<double>& c,
                        int n,
                        int fast,
                        int slow,
                        int signal,
                        double width,
                        int m1,
                        int m2) {
  const double nan = std::nan("");
  const auto size = c.size();
  Reference out;
  std::vector<double> up, all;
  for (std::size_t i = 1; i < size; ++i) {
    up.push_back(c[i] > c[i - 1] ? c[i] - c[i - 1] : 0.0);
    all.push_back(std::fabs(c[i] - c[i - 1]));
  }
  const auto up_avg = reference_tdx_sma(up, n, 1);
  const auto all_avg = reference_tdx_sma(all, n, 1);
  out.rsi.push_back(nan);
  for (std::size_t i = 0; i < up.size(); ++i) {
    out.rsi.push_back(all_avg[i] == 0 ? 0.0 : 100.0 * up_avg[i] / all_avg[i]);
  }
  const auto fast_ema = reference_tdx_ema(c, fast);
  const auto slow_ema = reference_tdx_ema(c, slow);
  for (std::size_t i = 0; i < size; ++i) {
    out.dif.push_back(fast_ema[i] - slow_ema[i]);
  }
  out.dea = reference_tdx_ema(out.dif, signal);
  for (std::size_t i = 0; i < size; ++i) {
    out.histogram.push_back(2 * out.dif[i] - 2 * out.dea[i]);
  }
  for (std::size_t i = 0; i < size; ++i) {
    if (i + 1 < static_cast<std::size_t>(n)) {
      out.middle.push_back(nan);
      out.upper.push_back(nan);
      out.lower.push_back(nan);
      continue;
    }
    const double mean = reference_mean(c, i, n);
    double squares = 0;
    for (int back = 0; back < n; ++back) {
      squares += std::pow(c[i - static_cast<std::size_t>(back)] - mean, 2);
    }
    const double deviation = std::sqrt(squares / (n - 1));
    out.middle.push_back(mean);
    out.upper.push_back(mean + width * deviation);
    out.lower.push_back(mean - width * deviation);
  }
  std::vector<double> ranges{nan};
  for (std::size_t i = 1; i < size; ++i) {
    ranges.push_back(std::max({h[i] - l[i], std::fabs(c[i - 1] - h[i]), std::fabs(c[i - 1] - l[i])}));
  }
  for (std::size_t i = 0; i < size; ++i) {
    out.atr.push_back(i < static_cast<std::size_t>(n) ? nan : reference_mean(ranges, i, n));
  }
  std::vector<double> rsv;
  for (std::size_t i = 0; i < size; ++i) {
    const std::size_t first = i + 1 >= static_cast<std::size_t>(n) ? i + 1 - static_cast<std::size_t>(n) : 0;
    const double highest = *std::max_element(h.begin() + static_cast<std::ptrdiff_t>(first),
                                              h.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    const double lowest = *std::min_element(l.begin() + static_cast<std::ptrdiff_t>(first),
                                            l.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    rsv.push_back(highest == lowest ? 50.0 : 100.0 * (c[i] - lowest) / (highest - lowest));
  }
  out.k = reference_tdx_sma(rsv, m1, 1);
  out.d = reference_tdx_sma(out.k, m2, 1);
  for (std::size_t i = 0; i < size; ++i) {
    out.j.push_back(3 * out.k[i] - 2 * out.d[i]);
  }
  return out;
}

// Check `ours` equals `expected` (NaN where it is NaN) to `tolerance` relative, or absolute near 0.
void check_close(const std::vector<double>& ours,
                 const std::vector<double>& expected,
                 double tolerance,
                 const char* what) {
  CAPTURE(what);
  REQUIRE(ours.size() == expected.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    CAPTURE(i);
    if (std::isnan(expected[i])) {
      CHECK(std::isnan(ours[i]));
    } else {
      CHECK(std::fabs(ours[i] - expected[i]) <= tolerance * std::max(1.0, std::fabs(expected[i])));
    }
  }
}

} // namespace

TEST_CASE("D13 talib: MACD, BBANDS, ATR and KDJ equal TA-Lib's") {
  SUBCASE("600519.SH raw") {
    check_talib_d13("bancob_600519.SH.csv", Mode::raw);
  }
  SUBCASE("600519.SH forward-adjusted, unrounded (factor steps in the history)") {
    check_talib_d13("bancob_600519.SH.csv", Mode::adjusted);
  }
  SUBCASE("000001.SZ raw (1212 bars)") {
    check_talib_d13("jenny_000001.SZ.csv", Mode::raw);
  }
}

TEST_CASE("D13 talib: MACD with signal 1 is its own signal line, from index slow - 1") {
  // TA-Lib answers signal 1 misaligned (its EMA lookback is -1 for period 1), so no fixture: the
  // signal of period 1 is the MACD line itself, as an EMA of period 1 is its input.
  const auto history = load_history("bancob_600519.SH.csv", Mode::raw);
  const auto& close = history.series[k_close];
  const auto one = indicators::macd(close, 2, 3, 1);
  const auto two = indicators::macd(close, 2, 3, 2);
  CHECK(indicators::macd_lookback(3, 1) == 2);
  CHECK(std::isnan(one.macd[1]));
  CHECK(std::isnan(one.signal[1]));
  CHECK(std::isnan(one.histogram[1]));
  for (std::size_t i = 2; i < close.size(); ++i) {
    CAPTURE(i);
    REQUIRE(one.signal[i] == one.macd[i]);
    REQUIRE(one.histogram[i] == 0.0);
    if (i >= 3) {
      REQUIRE(one.macd[i] == two.macd[i]); // the line does not depend on the signal period
    }
  }
}

TEST_CASE("D13 tdx: a constant series") {
  const std::vector<double> flat(30, 10.0);
  CHECK(indicators::tdx_ema(flat, 12) == flat);
  CHECK(indicators::tdx_sma(flat, 3, 1) == flat);
  CHECK(indicators::sma(flat, 5)[4] == 10.0);
  const auto rsi = indicators::tdx_rsi(flat, 6);
  CHECK(std::isnan(rsi[0]));
  CHECK(std::all_of(rsi.begin() + 1, rsi.end(), [](double x) { return x == 0.0; }));
  const auto macd = indicators::tdx_macd(flat, 12, 26, 9);
  for (const auto* line : {&macd.macd, &macd.signal, &macd.histogram}) {
    CHECK(std::all_of(line->begin(), line->end(), [](double x) { return x == 0.0; }));
  }
  const auto boll = indicators::tdx_boll(flat, 20, 2);
  CHECK(std::isnan(boll.middle[18]));
  CHECK(std::isnan(boll.upper[18]));
  CHECK(boll.middle[19] == 10.0);
  CHECK(boll.upper[19] == 10.0);
  CHECK(boll.lower[29] == 10.0);
  const auto atr = indicators::tdx_atr(flat, flat, flat, 14);
  CHECK(std::isnan(atr[13]));
  CHECK(atr[14] == 0.0);
  CHECK(atr[29] == 0.0);
  const auto kdj = indicators::tdx_kdj(flat, flat, flat, 9, 3, 3);
  for (const auto* line : {&kdj.k, &kdj.d, &kdj.j}) {
    // D13: RSV is 50 when the highest high equals the lowest low.
    CHECK(std::all_of(line->begin(), line->end(), [](double x) { return x == 50.0; }));
  }
  // TA-Lib's STOCH gives 0 there instead, and its bands collapse onto the mean.
  const auto stoch = indicators::kdj(flat, flat, flat, 9, 3, 3);
  CHECK(std::isnan(stoch.k[11]));
  CHECK(stoch.k[12] == 0.0);
  CHECK(stoch.j[29] == 0.0);
  const auto bands = indicators::bbands(flat, 20, 2);
  CHECK(bands.upper[19] == 10.0);
  CHECK(bands.lower[19] == 10.0);
}

TEST_CASE("D13 tdx: a strictly rising series, worked by hand") {
  // close 1, 2, 3, ...; high = close + 0.5, low = close - 0.5.
  std::vector<double> close, high, low;
  for (int i = 1; i <= 12; ++i) {
    close.push_back(i);
    high.push_back(i + 0.5);
    low.push_back(i - 0.5);
  }
  SUBCASE("EMA(C,3): Y[i] = (2*X[i] + 2*Y[i-1]) / 4") {
    const auto ema = indicators::tdx_ema(close, 3);
    CHECK(ema[0] == 1.0);
    CHECK(ema[1] == 1.5);   // (4 + 2) / 4
    CHECK(ema[2] == 2.25);  // (6 + 3) / 4
    CHECK(ema[3] == 3.125); // (8 + 4.5) / 4
  }
  SUBCASE("SMA(X,3,1) and RSI: every move up, so 100 from index 1") {
    const auto sma = indicators::tdx_sma(close, 3, 1);
    CHECK(sma[1] == doctest::Approx(4.0 / 3)); // (2 + 2*1) / 3
    const auto rsi = indicators::tdx_rsi(close, 6);
    CHECK(std::isnan(rsi[0]));
    CHECK(std::all_of(rsi.begin() + 1, rsi.end(), [](double x) { return x == 100.0; }));
  }
  SUBCASE("MACD(2,3,2): DIF = EMA2 - EMA3, DEA = EMA(DIF,2), histogram 2*(DIF-DEA)") {
    const auto macd = indicators::tdx_macd(close, 2, 3, 2);
    CHECK(macd.macd[0] == 0.0);
    CHECK(macd.macd[1] == doctest::Approx(5.0 / 3 - 1.5));     // EMA2: (4 + 1)/3
    CHECK(macd.signal[1] == doctest::Approx(1.0 / 9));         // (2/6 + 0) / 3
    CHECK(macd.histogram[1] == doctest::Approx(2 * (1.0 / 6 - 1.0 / 9)));
  }
  SUBCASE("BOLL(3, 2): the sample deviation of 1, 2, 3 is 1") {
    const auto boll = indicators::tdx_boll(close, 3, 2);
    CHECK(std::isnan(boll.middle[1]));
    CHECK(boll.middle[2] == 2.0);
    CHECK(boll.upper[2] == 4.0);
    CHECK(boll.lower[2] == 0.0);
    CHECK(boll.upper[3] == 5.0);
    // TA-Lib's population deviation is sqrt(2/3) there.
    CHECK(indicators::bbands(close, 3, 2).upper[2] == doctest::Approx(2 + 2 * std::sqrt(2.0 / 3)));
  }
  SUBCASE("ATR(4): every true range is 1.5 (the gap from the previous close to the high)") {
    const auto atr = indicators::tdx_atr(high, low, close, 4);
    CHECK(std::isnan(atr[3]));
    CHECK(atr[4] == 1.5);
    CHECK(atr[11] == 1.5);
    CHECK(indicators::atr(high, low, close, 4)[11] == 1.5);
  }
  SUBCASE("KDJ(3,3,3): RSV 50, 75, 83.3..; K from 50, D from 50") {
    const auto kdj = indicators::tdx_kdj(high, low, close, 3, 3, 3);
    CHECK(kdj.k[0] == 50.0);
    CHECK(kdj.k[1] == doctest::Approx(175.0 / 3));  // (75 + 2*50) / 3
    CHECK(kdj.d[1] == doctest::Approx(475.0 / 9));  // (175/3 + 100) / 3
    CHECK(kdj.j[1] == doctest::Approx(175.0 - 950.0 / 9));
    const double rsv2 = 2.5 / 3 * 100;
    CHECK(kdj.k[2] == doctest::Approx((rsv2 + 2 * 175.0 / 3) / 3));
  }
}

TEST_CASE("D13 tdx: a real extract equals an independent implementation") {
  for (const auto mode : {Mode::raw, Mode::adjusted}) {
    const auto history = load_history("bancob_600519.SH.csv", mode);
    const auto& h = history.series[k_high];
    const auto& l = history.series[k_low];
    const auto& c = history.series[k_close];
    for (const auto& [n, fast, slow, signal] :
         std::vector<std::array<int, 4>>{{6, 12, 26, 9}, {14, 5, 10, 3}, {2, 2, 3, 1}}) {
      CAPTURE(n);
      const double width = 2;
      const int m1 = 3, m2 = 4;
      const auto expected = reference_tdx(h, l, c, n, fast, slow, signal, width, m1, m2);
      constexpr double tolerance = 1e-9;
      check_close(indicators::tdx_rsi(c, n), expected.rsi, tolerance, "rsi");
      const auto macd = indicators::tdx_macd(c, fast, slow, signal);
      check_close(macd.macd, expected.dif, tolerance, "dif");
      check_close(macd.signal, expected.dea, tolerance, "dea");
      check_close(macd.histogram, expected.histogram, tolerance, "macd histogram");
      const auto boll = indicators::tdx_boll(c, n, width);
      check_close(boll.middle, expected.middle, tolerance, "boll middle");
      check_close(boll.upper, expected.upper, tolerance, "boll upper");
      check_close(boll.lower, expected.lower, tolerance, "boll lower");
      check_close(indicators::tdx_atr(h, l, c, n), expected.atr, tolerance, "atr");
      const auto kdj = indicators::tdx_kdj(h, l, c, n, m1, m2);
      check_close(kdj.k, expected.k, tolerance, "k");
      check_close(kdj.d, expected.d, tolerance, "d");
      check_close(kdj.j, expected.j, tolerance, "j");
    }
  }
}

TEST_CASE("D13: the series are as long as the input, short inputs included") {
  for (const std::size_t size : {0, 1, 2, 5}) {
    CAPTURE(size);
    const std::vector<double> x(size, 3.0);
    CHECK(indicators::macd(x, 12, 26, 9).macd.size() == size);
    CHECK(indicators::tdx_macd(x, 12, 26, 9).histogram.size() == size);
    CHECK(indicators::bbands(x, 20, 2).lower.size() == size);
    CHECK(indicators::tdx_boll(x, 20, 2).upper.size() == size);
    CHECK(indicators::atr(x, x, x, 14).size() == size);
    CHECK(indicators::tdx_atr(x, x, x, 14).size() == size);
    CHECK(indicators::kdj(x, x, x, 9, 3, 3).j.size() == size);
    CHECK(indicators::tdx_kdj(x, x, x, 9, 3, 3).d.size() == size);
    CHECK(indicators::tdx_rsi(x, 6).size() == size);
    CHECK(indicators::tdx_ema(x, 6).size() == size);
  }
}
