// The terminal chart (cli/chart/terminal): a tiny hand-made series drawn verbatim, plain; with
// colour, red up and green down candles and a colour per overlay; the size asked, exactly.
#include "chart_testdata.hpp"

#include "cli/chart/terminal.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::cli::chart;

namespace {


ChartData tiny() {
  return test::four_bar_chart();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

} // namespace

TEST_CASE("cli::render_terminal: a tiny series, plain") {
  const auto data = tiny();
  const auto text = render_terminal(data, layout_terminal(data, {40, 14}), false);
  // 7 price rows over 8.88..12.12 (0.2314 a half); candles 7 columns apart (the widest whole step
  // that fits), centred. The title row, the last bar's OHLC, the last close marked on the axis,
  // the volume pane's unit on its separator and 0 at its base (issue 12).
  CHECK(text
        == "600519.SH  2024-01-02 .. 2024-01-05  for\n"
           "2024-01-05  O 10.0  H 10.4  L 9.9  C 10.\n"
           "     │                           ┤ 12\n"
           "     │      │                    │\n"
           "     ┃      ┃                    │\n"
           "     ┃      ┃      ╷      ╷      │\n"
           "     ┃      ┃      ╽      ┃      ◀ 10.2\n"
           "     │      │      ╵             │\n"
           "     │                           │\n"
           "─ VOLUME (shares) ───────────────┼\n"
           "            █                    ┤ 200\n"
           "     █      █      ▄      ▆      │\n"
           "─────┬─────────────┬─────────────┘ 0\n"
           "     2024-01-02    2024-01-04\n");
}

TEST_CASE("cli::render_terminal: the size asked") {
  const auto data = tiny();
  const auto lines = lines_of(render_terminal(data, layout_terminal(data, {40, 14}), false));
  CHECK(lines.size() == 14);
}

TEST_CASE("cli::render_terminal: red up, green down, a colour per overlay, none when plain") {
  auto data = tiny();
  data.overlays.push_back({"SMA 2", {std::numeric_limits<double>::quiet_NaN(), 10.5, 10, 10.1}});
  const auto layout = layout_terminal(data, {40, 14});
  const auto coloured = render_terminal(data, layout, true);
  const auto lines = lines_of(coloured);
  REQUIRE(lines.size() == 14);
  CHECK(lines[1] == "\x1b[31m2024-01-05  O 10.0  H 10.4  L 9.9  C 10.\x1b[0m"); // the last bar, up
  CHECK(lines[2] == "     \x1b[31m│                           \x1b[0m┤ 12");
  CHECK(lines[3].find("\x1b[32m│") != std::string::npos); // the down candle
  CHECK(lines[6].find("\x1b[31m┃      ◀ 10.2\x1b[0m") != std::string::npos); // the last close
  CHECK(coloured.find("\x1b[33m•") != std::string::npos); // the overlay's points
  const auto wide = lines_of(render_terminal(data, layout_terminal(data, {80, 14}), true));
  CHECK(wide[0] == "600519.SH  2024-01-02 .. 2024-01-05  forward-adjusted");
  CHECK(wide[1] == "\x1b[31m2024-01-05  O 10.0  H 10.4  L 9.9  C 10.2  V 80  \x1b[0m\x1b[33m• \x1b[0mSMA 2");
  const auto plain = render_terminal(data, layout, false);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(lines_of(plain)[0] == "600519.SH  2024-01-02 .. 2024-01-05  for");
}

TEST_CASE("cli::render_terminal: an indicator pane with its label, lines, histogram and zero") {
  auto data = tiny();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  data.panes.push_back({"MACD 2 3 2",
                        {{"DIF", {nan, 0.6, 0.1, -0.5}}, {"DEA", {nan, 0.2, 0.3, 0.1}}},
                        {nan, 0.8, -0.4, -1.2}});
  const auto text = render_terminal(data, layout_terminal(data, {40, 30}), false);
  INFO(text);
  const auto lines = lines_of(text);
  REQUIRE(lines.size() == 30);
  // 4 pane rows over -1.28..0.88 (0.27 a half): the zero row is 1; 0.8 fills row 0 red above it,
  // -0.4 row 2 and -1.2 rows 2-3 green below; the lines fill the cells the bars leave,
  // interpolated across the gap columns. The volume's 0 is on the line under its pane.
  CHECK(text
        == "600519.SH  2024-01-02 .. 2024-01-05  for\n"
           "2024-01-05  O 10.0  H 10.4  L 9.9  C 10.\n"
           "     ╷                           ┤ 12\n"
           "     │                           │\n"
           "     │                           │\n"
           "     │      │                    │\n"
           "     │      │                    │\n"
           "     ╽      ╽                    ┤ 11\n"
           "     ┃      ┃                    │\n"
           "     ┃      ┃                    │\n"
           "     ┃      ┃      │      │      │\n"
           "     ┃      ┃      │      ┃      ◀ 10.2\n"
           "     ╿      ╿      ╿      ╿      ┤ 10\n"
           "     │      │      ╵             │\n"
           "     │      │                    │\n"
           "     │                           │\n"
           "     │                           │\n"
           "     ╵                           ┤ 9\n"
           "─ VOLUME (shares) ───────────────┼\n"
           "            █                    ┤ 200\n"
           "            █                    │\n"
           "     █      █             ▅      │\n"
           "     █      █      █      █      │\n"
           "─ MACD 2 3 2 ─• DIF ─+ DEA ──────┼ 0\n"
           "            ┃•••                 │\n"
           "┈┈┈┈┈┈┈┈┈┈┈┈++++•••••••++++┈┈┈┈┈┈┤ 0\n"
           "                   ┃   •••┃      │\n"
           "                          ┃      ┤ -1\n"
           "─────┬─────────────┬─────────────┘\n"
           "     2024-01-02    2024-01-04\n");
}

TEST_CASE("cli::render_terminal: a pane of one line has its label and no legend") {
  auto data = tiny();
  data.panes.push_back({"RSI 2", {{"RSI 2", {50, 100, 40, 60}}}});
  const auto lines = lines_of(render_terminal(data, layout_terminal(data, {40, 20}), false));
  const auto separator = std::find_if(lines.begin(), lines.end(),
                                      [](const auto& line) { return line.starts_with("─ RSI 2 "); });
  REQUIRE(separator != lines.end());
  CHECK(*separator == "─ RSI 2 ─────────────────────────┼ 0"); // 0: the volume pane's base
}
