// The geometry of `ashare chart` (cli/chart/layout): merging bars into candles, the price scale
// and its ticks, rows of prices, the date ticks, and the terminal model: a candle's body spans
// the rows of its open and close, its wick those of its high and low, volume bars are
// proportional, and the panes add up to the size asked.
#include "testutil.hpp"

#include "cli/chart/layout.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::cli::chart;

namespace {

using test::date;

domain::Bar bar(const std::string& iso,
                double open,
                double high,
                double low,
                double close,
                std::int64_t volume) {
  return test::make_bar(iso, open, high, low, close, 1.0, volume);
}

// `count` bars on consecutive calendar days from 2024-01-01, zig-zagging around 100.
std::vector<domain::Bar> zigzag(int count) {
  std::vector<domain::Bar> out;
  for (int i = 0; i < count; ++i) {
    const double base = 100 + 10 * std::sin(i / 7.0);
    const double open = base + (i % 2 == 0 ? -1.5 : 1.5);
    const double close = base + (i % 3 == 0 ? 2.0 : -0.5);
    out.push_back(bar(date("2024-01-01").plus_days(i).iso(), open, std::max(open, close) + 1,
                      std::min(open, close) - 1, close, 1000 + 37 * (i % 11)));
  }
  return out;
}

ChartData data_of(std::vector<domain::Bar> bars) {
  ChartData data;
  data.symbol = "600519.SH";
  data.bars = std::move(bars);
  return data;
}

} // namespace

TEST_CASE("cli::bars_per_candle") {
  struct Row {
    std::size_t bars;
    int columns;
    int group;
  };
  for (const auto& row : std::vector<Row>{{0, 10, 1},
                                          {1, 10, 1},
                                          {10, 10, 1},
                                          {11, 10, 2},
                                          {20, 10, 2},
                                          {21, 10, 3},
                                          {117, 92, 2},
                                          {500, 100, 5},
                                          {501, 100, 6}}) {
    CAPTURE(row.bars);
    CAPTURE(row.columns);
    CHECK(bars_per_candle(row.bars, row.columns) == row.group);
  }
}

TEST_CASE("cli::merge_bars") {
  const std::vector<domain::Bar> bars{bar("2024-01-02", 10, 12, 9, 11, 100),
                                      bar("2024-01-03", 11, 13, 10, 10.5, 200),
                                      bar("2024-01-04", 10.5, 11, 8, 9, 300)};

  SUBCASE("a group of 1 keeps every bar") {
    const auto candles = merge_bars(bars, 1);
    REQUIRE(candles.size() == 3);
    CHECK(candles[1].open == 11);
    CHECK(candles[1].close == 10.5);
    CHECK(candles[1].bars == 1);
  }
  SUBCASE("open of the first, close of the last, highest high, lowest low, summed volume") {
    const auto candles = merge_bars(bars, 2);
    REQUIRE(candles.size() == 2);
    CHECK(candles[0].first_date == date("2024-01-02"));
    CHECK(candles[0].last_date == date("2024-01-03"));
    CHECK(candles[0].open == 10);
    CHECK(candles[0].close == 10.5);
    CHECK(candles[0].high == 13);
    CHECK(candles[0].low == 9);
    CHECK(candles[0].volume == 300);
    CHECK(candles[0].bars == 2);
    CHECK(candles[1].first_date == date("2024-01-04")); // the last group may hold fewer
    CHECK(candles[1].bars == 1);
    CHECK(candles[1].volume == 300);
  }
  SUBCASE("overlay values merge to each group's last") {
    const std::vector<double> values{1, 2, 3, 4, 5};
    CHECK(merge_values(values, 2) == std::vector<double>{2, 4, 5});
    CHECK(merge_values(values, 1) == values);
  }
}

TEST_CASE("cli::is_up: close >= open is up") {
  CHECK(is_up(Candle{{}, {}, 10, 12, 9, 11, 0, 1}));
  CHECK(is_up(Candle{{}, {}, 10, 12, 9, 10, 0, 1})); // a doji counts as up
  CHECK_FALSE(is_up(Candle{{}, {}, 11, 12, 9, 10, 0, 1}));
}

TEST_CASE("cli::price_scale") {
  SUBCASE("lowest low to highest high, padded by 4% of the range") {
    auto data =
        data_of({bar("2024-01-02", 10, 12, 9, 11, 1), bar("2024-01-03", 11, 14, 10, 13, 1)});
    const auto scale = price_scale(data);
    CHECK(scale.low == doctest::Approx(9 - 0.2));
    CHECK(scale.high == doctest::Approx(14 + 0.2));
  }
  SUBCASE("overlay values widen it; NaN does not") {
    auto data = data_of({bar("2024-01-02", 10, 12, 9, 11, 1)});
    data.overlays.push_back({"SMA 5", {std::numeric_limits<double>::quiet_NaN()}});
    data.overlays.push_back({"EMA 5", {15.0}});
    const auto scale = price_scale(data);
    CHECK(scale.low == doctest::Approx(9 - 0.24));
    CHECK(scale.high == doctest::Approx(15 + 0.24));
  }
  SUBCASE("a flat series is padded by 1% of its price") {
    const auto scale = price_scale(data_of({bar("2024-01-02", 50, 50, 50, 50, 1)}));
    CHECK(scale.low == doctest::Approx(49.5));
    CHECK(scale.high == doctest::Approx(50.5));
  }
  SUBCASE("from_top is 0 at the high and 1 at the low") {
    const PriceScale scale{10, 20};
    CHECK(scale.from_top(20) == 0);
    CHECK(scale.from_top(10) == 1);
    CHECK(scale.from_top(17.5) == doctest::Approx(0.25));
  }
}

TEST_CASE("cli::half_of and row_of") {
  const PriceScale scale{10, 20};
  SUBCASE("table") {
    struct Row {
      double price;
      int half;
    };
    // 5 rows: 10 halves of 1.0 each, from the top.
    for (const auto& row : std::vector<Row>{{20, 0},
                                            {19.01, 0},
                                            {19, 1},
                                            {15.5, 4},
                                            {15, 5},
                                            {10.5, 9},
                                            {10, 9},
                                            {25, 0},
                                            {5, 9}}) {
      CAPTURE(row.price);
      CHECK(half_of(row.price, scale, 5) == row.half);
      CHECK(row_of(row.price, scale, 5) == row.half / 2);
    }
  }
  SUBCASE("monotonic: a higher price is never lower on the screen") {
    int previous = half_of(10, scale, 7);
    for (double price = 10; price <= 20; price += 0.01) {
      const int half = half_of(price, scale, 7);
      CHECK(half <= previous);
      previous = half;
    }
  }
}

TEST_CASE("cli::price_ticks") {
  const auto values = [](const std::vector<PriceTick>& ticks) {
    std::vector<std::string> out;
    for (const auto& tick : ticks) {
      out.push_back(tick.label);
    }
    return out;
  };
  CHECK(values(price_ticks({1395, 1705}, 7))
        == std::vector<std::string>{"1400", "1450", "1500", "1550", "1600", "1650", "1700"});
  CHECK(values(price_ticks({1395, 1705}, 4))
        == std::vector<std::string>{"1400", "1500", "1600", "1700"});
  CHECK(values(price_ticks({29.8, 31.3}, 3)) == std::vector<std::string>{"30.0", "30.5", "31.0"});
  CHECK(values(price_ticks({3.01, 3.09}, 4))
        == std::vector<std::string>{"3.02", "3.04", "3.06", "3.08"});
  CHECK(values(price_ticks({-0.3, 0.3}, 3)) == std::vector<std::string>{"-0.2", "0.0", "0.2"});
  SUBCASE("never more than asked, and at least one from 3 asked") {
    for (int max = 1; max <= 12; ++max) {
      CAPTURE(max);
      const auto ticks = price_ticks({1234.5, 1987.6}, max);
      CHECK(static_cast<int>(ticks.size()) <= max);
      CHECK(ticks.size() >= (max >= 3 ? 1u : 0u));
    }
  }
}

TEST_CASE("cli::short_volume") {
  struct Row {
    std::int64_t volume;
    const char* text;
  };
  for (const auto& row : std::vector<Row>{{0, "0"},
                                          {950, "950"},
                                          {1000, "1K"},
                                          {12345, "12.3K"},
                                          {480000, "480K"},
                                          {4800000, "4.8M"},
                                          {10812345, "10.8M"},
                                          {173000000, "173M"},
                                          {1234567890, "1.2B"}}) {
    CHECK(short_volume(row.volume) == row.text);
  }
}

TEST_CASE("cli::date_ticks") {
  std::vector<domain::Date> dates;
  std::vector<double> positions;
  // Every weekday from 2024-01-02 to 2024-06-28, one column apart.
  for (auto day = date("2024-01-02"); day <= date("2024-06-28"); day = day.plus_days(1)) {
    const auto weekday = std::chrono::weekday{day.days()};
    if (weekday != std::chrono::Saturday && weekday != std::chrono::Sunday) {
      dates.push_back(day);
      positions.push_back(static_cast<double>(positions.size()));
    }
  }
  const auto labels = [&](const std::vector<std::size_t>& ticks) {
    std::vector<std::string> out;
    for (const auto i : ticks) {
      out.push_back(dates[i].iso());
    }
    return out;
  };
  SUBCASE("the first trading day of every month when there is room") {
    CHECK(labels(date_ticks(dates, positions, 10, 1, 200))
          == std::vector<std::string>{"2024-01-02", "2024-02-01", "2024-03-01", "2024-04-01",
                                      "2024-05-01", "2024-06-03"});
  }
  SUBCASE("every second month when monthly labels crowd") {
    CHECK(labels(date_ticks(dates, positions, 25, 1, 200))
          == std::vector<std::string>{"2024-01-02", "2024-03-01", "2024-05-01"});
  }
  SUBCASE("no label runs past the limit") {
    CHECK(labels(date_ticks(dates, positions, 10, 1, 118))
          == std::vector<std::string>{"2024-01-02", "2024-02-01", "2024-03-01", "2024-04-01",
                                      "2024-05-01"});
  }
  SUBCASE("evenly spaced within a month") {
    const std::span<const domain::Date> june(dates.end() - 20, dates.end());
    const std::span<const double> columns(positions.begin(), positions.begin() + 20);
    const auto ticks = date_ticks(june, columns, 4, 1, 100);
    CHECK(ticks == std::vector<std::size_t>{0, 5, 10, 15});
  }
}

TEST_CASE("cli::layout_terminal: geometry") {
  auto data = data_of(zigzag(60));
  std::vector<double> sma(60, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 4; i < 60; ++i) {
    sma[i] = 100 + 10 * std::sin(static_cast<double>(i) / 7.0);
  }
  data.overlays.push_back({"SMA 5", sma});
  const auto layout = layout_terminal(data, {100, 30});

  SUBCASE("the panes and the fixed rows add up to the size") {
    CHECK(layout.price_rows + layout.volume_rows + 5 == 30); // title, last bar, 3 axis rows
    CHECK(layout.volume_rows == 5);
    CHECK(layout.plot_columns < 100);
    CHECK(layout.group == 1);
    CHECK(layout.candles.size() == 60);
  }
  SUBCASE("a candle's body spans the rows of its open and close, its wick high to low") {
    REQUIRE(layout.cells.size() == layout.candles.size());
    for (std::size_t i = 0; i < layout.cells.size(); ++i) {
      CAPTURE(i);
      const auto& candle = layout.candles[i];
      const auto& cells = layout.cells[i];
      const int rows = layout.price_rows;
      CHECK(cells.body_top == half_of(std::max(candle.open, candle.close), layout.scale, rows));
      CHECK(cells.body_bottom == half_of(std::min(candle.open, candle.close), layout.scale, rows));
      CHECK(cells.body_top / 2 == row_of(std::max(candle.open, candle.close), layout.scale, rows));
      CHECK(cells.body_bottom / 2
            == row_of(std::min(candle.open, candle.close), layout.scale, rows));
      CHECK(cells.wick_top == half_of(candle.high, layout.scale, rows));
      CHECK(cells.wick_bottom == half_of(candle.low, layout.scale, rows));
      CHECK(cells.wick_top <= cells.body_top);
      CHECK(cells.body_top <= cells.body_bottom);
      CHECK(cells.body_bottom <= cells.wick_bottom);
      CHECK(cells.up == (candle.close >= candle.open));
    }
  }
  SUBCASE("candles the same number of columns apart, centred, off the frame and the axis") {
    // Issue 12: an uneven gap looks like a missing session.
    const int step = layout.cells[1].column - layout.cells[0].column;
    CHECK(step >= 1);
    for (std::size_t i = 1; i < layout.cells.size(); ++i) {
      CHECK(layout.cells[i].column - layout.cells[i - 1].column == step);
    }
    const int before = layout.cells.front().column;
    const int after = layout.plot_columns - 1 - layout.cells.back().column;
    CHECK(before >= 1); // padding: no candle touches the frame or the axis
    CHECK(after >= 1);
    CHECK(std::abs(before - after) <= step);
    CHECK(step * 60 <= layout.plot_columns - 2);
    CHECK((step + 1) * 60 > layout.plot_columns - 2); // the widest whole step that fits
  }
  SUBCASE("volume bars are proportional, the highest filling the pane") {
    std::int64_t max_volume = 0;
    for (const auto& candle : layout.candles) {
      max_volume = std::max(max_volume, candle.volume);
    }
    for (std::size_t i = 0; i < layout.cells.size(); ++i) {
      const double expected = static_cast<double>(layout.candles[i].volume)
                              / static_cast<double>(max_volume) * layout.volume_rows * 8;
      CHECK(std::abs(layout.cells[i].volume_eighths - expected) <= 0.5);
    }
    CHECK(layout.volume_label == "1.4K");
  }
  SUBCASE("price ticks sit on the rows of their prices, top to bottom") {
    REQUIRE(layout.price_ticks.size() >= 2);
    for (std::size_t i = 0; i < layout.price_ticks.size(); ++i) {
      const auto& tick = layout.price_ticks[i];
      CHECK(tick.row == row_of(std::stod(tick.label), layout.scale, layout.price_rows));
      if (i > 0) {
        CHECK(tick.row < layout.price_ticks[i - 1].row);
      }
    }
  }
  SUBCASE("overlay points sit on the rows of their values, none in the warm-up") {
    REQUIRE_FALSE(layout.overlay_cells.empty());
    CHECK(layout.overlay_cells.front().column == layout.cells[4].column);
    for (const auto& point : layout.overlay_cells) {
      for (std::size_t i = 0; i < layout.cells.size(); ++i) {
        if (layout.cells[i].column == point.column) {
          CHECK(point.row == row_of(sma[i], layout.scale, layout.price_rows));
        }
      }
    }
  }
  SUBCASE("date labels do not overlap") {
    REQUIRE(layout.date_ticks.size() >= 2);
    CHECK(layout.date_ticks.front().label == "2024-01-01");
    for (std::size_t i = 1; i < layout.date_ticks.size(); ++i) {
      CHECK(layout.date_ticks[i].column - layout.date_ticks[i - 1].column >= 11);
    }
  }
}

TEST_CASE("cli::layout_terminal: more bars than columns merge into candles") {
  const auto data = data_of(zigzag(250));
  const auto layout = layout_terminal(data, {60, 20});
  const int plot = layout.plot_columns;
  CHECK(layout.group == bars_per_candle(250, plot - 2));
  CHECK(layout.group > 1);
  CHECK(static_cast<int>(layout.candles.size()) <= plot - 2);
  for (std::size_t i = 1; i < layout.cells.size(); ++i) {
    CHECK(layout.cells[i].column - layout.cells[i - 1].column == 1); // no blank column
  }
  CHECK(layout.candles.size()
        == (250 + static_cast<std::size_t>(layout.group) - 1)
               / static_cast<std::size_t>(layout.group));
  std::int64_t total = 0;
  for (const auto& candle : layout.candles) {
    total += candle.volume;
  }
  std::int64_t expected = 0;
  for (const auto& b : data.bars) {
    expected += b.volume;
  }
  CHECK(total == expected);
  CHECK(layout.candles.front().open == data.bars.front().open);
  CHECK(layout.candles.back().close == data.bars.back().close);
}

TEST_CASE("cli::chart_title") {
  auto data = data_of({bar("2024-01-02", 10, 12, 9, 11, 1), bar("2024-06-28", 10, 12, 9, 11, 1)});
  CHECK(chart_title(data) == "600519.SH  2024-01-02 .. 2024-06-28  forward-adjusted");
  data.adjusted = false;
  CHECK(chart_title(data, " · ") == "600519.SH · 2024-01-02 .. 2024-06-28 · raw prices");
  data.bars.clear();
  CHECK(chart_title(data) == "600519.SH  raw prices");
}

TEST_CASE("cli::layout_terminal: indicator panes below the volume pane") {
  auto data = data_of(zigzag(60));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  IndicatorPane macd{"MACD 12 26 9", {{"DIF", std::vector<double>(60, nan)}, {"DEA", {}}}};
  macd.lines[1].values.assign(60, nan);
  macd.histogram.assign(60, nan);
  for (std::size_t i = 10; i < 60; ++i) {
    macd.lines[0].values[i] = std::sin(static_cast<double>(i) / 5.0);
    macd.lines[1].values[i] = 0.5 * std::sin(static_cast<double>(i - 2) / 5.0);
    macd.histogram[i] = macd.lines[0].values[i] - macd.lines[1].values[i];
  }
  data.panes.push_back(macd);
  data.panes.push_back({"RSI 14", {{"RSI 14", std::vector<double>(60, 55.0)}}});

  SUBCASE("every pane and its separator add up to the size") {
    for (const int rows : {min_terminal_rows(2), 30, 45}) {
      CAPTURE(rows);
      const auto layout = layout_terminal(data, {100, rows});
      REQUIRE(layout.panes.size() == 2);
      CHECK(layout.price_rows >= 4);
      CHECK(layout.panes[0].rows >= 3);
      CHECK(layout.panes[0].rows == layout.panes[1].rows);
      CHECK(layout.price_rows + layout.volume_rows + 2 * (1 + layout.panes[0].rows) + 5 == rows);
    }
    CHECK(min_terminal_rows(0) == k_min_terminal_rows);
    CHECK(k_min_terminal_rows == 11);
    CHECK(min_terminal_rows(2) == k_min_terminal_rows + 8);
  }
  const auto layout = layout_terminal(data, {100, 40});
  const auto& pane = layout.panes[0];
  SUBCASE("a pane's scale holds its lines, its histogram and zero") {
    CHECK(pane.scale.low < -1.0 * 0.99);
    CHECK(pane.scale.high > 0.99);
    CHECK(pane_scale(data.panes[1]).low < 55);
    CHECK(pane_scale(data.panes[1]).high > 55);
    CHECK(pane_scale(data.panes[1]).low > 54); // no histogram: zero is not pulled in
  }
  SUBCASE("histogram bars run from next to the zero row to the value's row, red above") {
    const int zero = row_of(0, pane.scale, pane.rows);
    REQUIRE_FALSE(pane.histogram.empty());
    for (const auto& bar : pane.histogram) {
      CHECK(bar.top <= bar.bottom);
      if (bar.up) {
        CHECK(bar.bottom == zero - 1);
      } else {
        CHECK(bar.top == zero + 1);
      }
    }
    for (std::size_t i = 10; i < 60; ++i) {
      const double value = data.panes[0].histogram[i];
      const int row = row_of(value, pane.scale, pane.rows);
      const auto column = layout.cells[i].column;
      const auto bar = std::find_if(pane.histogram.begin(), pane.histogram.end(),
                                    [&](const auto& b) { return b.column == column; });
      CAPTURE(i);
      if (row == zero) {
        CHECK(bar == pane.histogram.end());
      } else {
        REQUIRE(bar != pane.histogram.end());
        CHECK(bar->up == (value > 0));
        CHECK((bar->up ? bar->top : bar->bottom) == row);
      }
    }
  }
  SUBCASE("line points at every candle with a value, none before the first") {
    for (std::size_t j = 0; j < 2; ++j) {
      for (std::size_t i = 0; i < 60; ++i) {
        const auto column = layout.cells[i].column;
        const auto point = std::find_if(pane.line_cells.begin(), pane.line_cells.end(), [&](const auto& p) {
          return p.overlay == j && p.column == column;
        });
        CAPTURE(i);
        if (i < 10) {
          CHECK(point == pane.line_cells.end());
        } else {
          REQUIRE(point != pane.line_cells.end());
          CHECK(point->row == row_of(data.panes[0].lines[j].values[i], pane.scale, pane.rows));
        }
      }
    }
  }
  SUBCASE("Bollinger bands widen the price scale") {
    auto wide = data_of(zigzag(60));
    wide.overlays.push_back({"BOLL 20 2", std::vector<double>(60, 100.0),
                             {std::vector<double>(60, 150.0), std::vector<double>(60, 50.0)}});
    const auto scale = price_scale(wide);
    CHECK(scale.high > 150);
    CHECK(scale.low < 50);
    const auto banded = layout_terminal(wide, {100, 30});
    std::size_t points = 0;
    for (const auto& point : banded.overlay_cells) {
      points += point.overlay == 0 ? 1 : 0;
    }
    CHECK(points >= 3 * 60); // the middle line and both bands, one legend entry
  }
}

TEST_CASE("cli::last_bar_text: the prices at one number of decimals, no digit dropped") {
  auto data = data_of({bar("2024-06-28", 1410, 1420.8, 1403, 1418.99, 3'215'000)});
  CHECK(last_bar_text(data) == "2024-06-28  O 1410.00  H 1420.80  L 1403.00  C 1418.99  V 3.2M");
  data.bars.back().close = 1418.9912;
  CHECK(last_bar_text(data)
        == "2024-06-28  O 1410.0000  H 1420.8000  L 1403.0000  C 1418.9912  V 3.2M");
}
