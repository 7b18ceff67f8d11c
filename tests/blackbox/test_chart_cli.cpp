// `ashare chart` end to end (issue 5, "Pictures"): the SVG is well-formed XML (read back by
// python3's xml.etree) with one candle per bar `ashare bars` prints for the window; the terminal
// chart is plain in a pipe and coloured on a terminal unless NO_COLOR; the size and the default
// window; local and remote mode draw the same; errors and exit statuses are those of `bars`.
#include "fixtures.hpp"
#include "support/build_paths.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace bb;
namespace fs = std::filesystem;

namespace {

// The store of every test here (600519.SH and 600036.SH), a pro key, and `ashare serve` on it.
struct ChartWorld {
  TestStore store;
  Key pro;
  std::optional<ServerProcess> server;

  std::string base_url() const { return server->base_url(); }
};

ChartWorld& chart_world() {
  static ChartWorld* instance = [] {
    static ChartWorld w;
    w.store.import({fixture("bancob_600519.SH.csv"), fixture("bancob_600036.SH.csv")});
    w.pro = w.store.create_key("pro");
    w.server.emplace(w.store);
    return &w;
  }();
  return *instance;
}

RunResult local(const TempDir& home,
                std::vector<std::string> args,
                const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), {"--db", chart_world().store.data_locator()});
  return run_clean(home.path(), args, env);
}

RunResult remote(const TempDir& home, std::vector<std::string> args) {
  args.insert(args.begin(),
              {"--base-url", chart_world().base_url(), "--api-key", chart_world().pro.plaintext});
  return run_clean(home.path(), args);
}

// What python3's xml.etree reads in an SVG file, one fact per line: the root's viewBox, the number
// of candle groups, their data-date values comma-separated, the number of polylines, the title.
constexpr const char* k_svg_reader = R"(import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = '{http://www.w3.org/2000/svg}'
assert root.tag == ns + 'svg', root.tag
candles = [g for g in root.iter(ns + 'g') if 'candle' in g.get('class', '').split()]
print(root.get('viewBox'))
print(len(candles))
print(','.join(g.get('data-date') for g in candles))
print(sum(1 for _ in root.iter(ns + 'polyline')))
print(root.find(ns + 'title').text)
)";

std::vector<std::string> read_svg(const fs::path& path) {
  const auto result = run_process({"/usr/bin/env", "python3", "-c", k_svg_reader, path.string()});
  REQUIRE_MESSAGE(result.status == 0, "not well-formed SVG: " << result.err);
  return split_lines(result.out);
}

// The trade dates `ashare bars` prints for the window, comma-separated.
std::string bar_dates(const TempDir& home, const std::string& from, const std::string& to) {
  const auto bars = local(home, {"bars", "600519.SH", from, to, "--format", "csv"});
  REQUIRE(bars.status == 0);
  std::string dates;
  const auto lines = split_lines(bars.out);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    dates += (dates.empty() ? "" : ",") + lines[i].substr(10, 10); // after "600519.SH,"
  }
  return dates;
}

// The number of terminal columns `line` takes: one per UTF-8 code point.
std::size_t columns_of(const std::string& line) {
  std::size_t n = 0;
  for (const char c : line) {
    n += (static_cast<unsigned char>(c) & 0xc0) != 0x80 ? 1 : 0;
  }
  return n;
}

} // namespace

TEST_CASE("chart cli: the SVG is well-formed XML with one candle per bar of `bars`") {
  TempDir home;
  const auto svg = home.path() / "out.svg";
  const auto result = local(home, {"chart", "600519.SH", "2024-01-01", "2024-06-30", "--svg",
                                   svg.string(), "--overlay", "sma:20,ema:50"});
  REQUIRE_MESSAGE(result.status == 0, describe(result));
  CHECK(result.out.empty());
  CHECK(result.err.empty());
  const auto facts = read_svg(svg);
  REQUIRE(facts.size() == 5);
  const auto dates = bar_dates(home, "2024-01-01", "2024-06-30");
  CHECK(facts[0] == "0 0 1000 600");
  CHECK(facts[1] == std::to_string(std::count(dates.begin(), dates.end(), ',') + 1));
  CHECK(facts[2] == dates);
  CHECK(facts[3] == "2"); // SMA 20 and EMA 50, computed over the history before the window (D9)
  CHECK(facts[4] == "600519.SH, 2024-01-02 .. 2024-06-28, forward-adjusted");

  SUBCASE("--raw and --width/--height in pixels") {
    const auto raw = local(home, {"chart", "600519.SH", "2024-01-01", "2024-06-30", "--raw",
                                  "--svg", svg.string(), "--width", "640", "--height", "360"});
    REQUIRE_MESSAGE(raw.status == 0, describe(raw));
    const auto raw_facts = read_svg(svg);
    CHECK(raw_facts[0] == "0 0 640 360");
    CHECK(raw_facts[2] == dates);
    CHECK(raw_facts[3] == "0");
    CHECK(raw_facts[4] == "600519.SH, 2024-01-02 .. 2024-06-28, raw prices");
  }
}

TEST_CASE("chart cli: in a pipe the chart is plain text of the size asked") {
  TempDir home;
  const std::vector<std::string> args{"chart",      "600519.SH", "2024-01-01",
                                      "2024-06-30", "--overlay", "sma:20"};
  SUBCASE("--width and --height") {
    const auto result = local(home, {args[0], args[1], args[2], args[3], args[4], args[5],
                                     "--width", "90", "--height", "24"});
    REQUIRE_MESSAGE(result.status == 0, describe(result));
    const auto lines = split_lines(result.out);
    REQUIRE(lines.size() == 24);
    CHECK(result.out.find('\x1b') == std::string::npos);
    CHECK(lines[0] == "600519.SH  2024-01-02 .. 2024-06-28  forward-adjusted  (2 bars per candle)");
    // The last bar's OHLC as `ashare bars` prints it, at one number of decimals, then the legend.
    const auto bar = local(home, {"bars", "600519.SH", "2024-06-28", "2024-06-28", "--format",
                                  "csv", "--no-header"});
    REQUIRE(bar.status == 0);
    std::vector<std::string> fields;
    std::stringstream row(split_lines(bar.out).at(0));
    for (std::string field; std::getline(row, field, ',');) {
      fields.push_back(field);
    }
    REQUIRE(fields.size() == 11); // symbol,trade_date,t,open,high,low,close,...
    std::size_t decimals = 0;
    for (std::size_t i = 3; i <= 6; ++i) {
      const auto point = fields[i].find('.');
      decimals = std::max(decimals, point == std::string::npos ? 0 : fields[i].size() - point - 1);
    }
    const auto padded = [&](std::string text) {
      if (decimals > 0 && text.find('.') == std::string::npos) {
        text += '.';
      }
      while (text.size() - text.find('.') - 1 < decimals) {
        text += '0';
      }
      return text;
    };
    CHECK(lines[1]
          == "2024-06-28  O " + padded(fields[3]) + "  H " + padded(fields[4]) + "  L "
               + padded(fields[5]) + "  C " + padded(fields[6]) + "  V 3.9M  • SMA 20");
    for (const auto& line : lines) {
      CHECK(columns_of(line) <= 90);
    }
    CHECK(lines[23].find("2024-0") != std::string::npos); // date labels
  }
  SUBCASE("COLUMNS and LINES when stdout is no terminal, a row left for the prompt") {
    const auto result = local(home, args, {"COLUMNS=140", "LINES=41"});
    REQUIRE_MESSAGE(result.status == 0, describe(result));
    const auto lines = split_lines(result.out);
    CHECK(lines.size() == 40);
    CHECK(lines[0].find("bars per candle") == std::string::npos); // 117 bars fit in 140 columns
  }
  SUBCASE("else 100 by 30") {
    const auto result = local(home, args);
    REQUIRE_MESSAGE(result.status == 0, describe(result));
    const auto lines = split_lines(result.out);
    CHECK(lines.size() == 30);
    for (const auto& line : lines) {
      CHECK(columns_of(line) <= 100);
    }
  }
}

TEST_CASE("chart cli: on a terminal red up and green down, plain with NO_COLOR") {
  TempDir home;
  // 2024-06-17 and 06-18 fell (close < open), 2024-06-19 rose.
  const std::string chart = ashare_bin() + " --db '" + chart_world().store.data_locator() + "'"
                            + " chart 600519.SH 2024-06-17 2024-06-19 --width 60 --height 16";
  const auto on_terminal = [&](const std::string& extra) {
    const std::string command =
        "/usr/bin/env -i HOME=" + home.path().string() + " TERM=xterm " + extra + chart;
    return run_process({"/usr/bin/script", "-qec", command, "/dev/null"}, 60s);
  };
  const auto coloured = on_terminal("");
  REQUIRE_MESSAGE(coloured.status == 0, describe(coloured));
  CHECK(coloured.out.find("\x1b[31m") != std::string::npos);
  CHECK(coloured.out.find("\x1b[32m") != std::string::npos);
  const auto plain = on_terminal("NO_COLOR=1 ");
  REQUIRE_MESSAGE(plain.status == 0, describe(plain));
  CHECK(plain.out.find("600519.SH  2024-06-17 .. 2024-06-19") != std::string::npos);
  CHECK(plain.out.find("\x1b[") == std::string::npos);
}

TEST_CASE("chart cli: local and remote mode draw the same chart") {
  TempDir local_home;
  TempDir remote_home;
  const std::vector<std::string> args{
      "chart",         "600519.SH", "2024-03-01", "2024-09-30", "--overlay",
      "ema:12,sma:60", "--width",   "110",        "--height",   "28"};
  const auto here = local(local_home, args);
  const auto there = remote(remote_home, args);
  REQUIRE_MESSAGE(here.status == 0, describe(here));
  REQUIRE_MESSAGE(there.status == 0, describe(there));
  CHECK(here.out == there.out);

  std::vector<std::string> svg_args(args.begin(), args.begin() + 6); // no terminal size
  svg_args.push_back("--svg");
  svg_args.push_back((local_home.path() / "a.svg").string());
  REQUIRE(local(local_home, svg_args).status == 0);
  svg_args.back() = (remote_home.path() / "a.svg").string();
  REQUIRE(remote(remote_home, svg_args).status == 0);
  CHECK(read_text(local_home.path() / "a.svg") == read_text(remote_home.path() / "a.svg"));
}

TEST_CASE("chart cli: TO defaults to as_of and FROM to six months before TO") {
  TempDir home;
  const auto result = local(home, {"chart", "600519.SH"});
  REQUIRE_MESSAGE(result.status == 0, describe(result));
  const auto dates = bar_dates(home, "2025-04-23", k_fixture_as_of);
  CHECK(split_lines(result.out)[0].starts_with("600519.SH  " + dates.substr(0, 10) + " .. "
                                               + k_fixture_as_of + "  forward-adjusted"));
}

TEST_CASE("chart cli: usage errors exit 2") {
  TempDir home;
  for (const std::string spec : {"boll:20", "sma", "sma:0", "sma:20,", "ema:x", "macd:26:12"}) {
    CAPTURE(spec);
    const auto result = local(home, {"chart", "600519.SH", "--overlay", spec});
    CHECK(result.status == 2);
    CHECK(result.out.empty());
  }
  const auto bad = local(home, {"chart", "600519.SH", "--overlay", "sma:20,cci:14"});
  CHECK(bad.err
        == "ashare: error: invalid --overlay \"cci:14\": expected sma:N, ema:N, bbands[:N[:K]], "
           "rsi[:N], atr[:N], macd[:FAST[:SLOW[:SIGNAL]]] or kdj[:N[:M1[:M2]]], comma-separated "
           "(e.g. sma:20,bbands,macd)\n");
  const auto slow = local(home, {"chart", "600519.SH", "--overlay", "macd:30"});
  CHECK(slow.err
        == "ashare: error: invalid --overlay \"macd:30\": invalid fast \"30\": expected less than "
           "slow (26)\n");
  // Each indicator pane needs a separator and three rows (D13 overlays).
  const auto low = local(home, {"chart", "600519.SH", "--overlay", "macd,kdj", "--height", "18"});
  CHECK(low.status == 2);
  CHECK(low.err
        == "ashare: error: the chart needs --width 30 and --height 19 at least (terminal cells)\n");

  const auto two = local(home, {"chart", "600519.SH,600036.SH"});
  CHECK(two.status == 2);
  CHECK(two.err == "ashare: error: chart draws one symbol, not \"600519.SH,600036.SH\"\n");

  const auto narrow = local(home, {"chart", "600519.SH", "--width", "10"});
  CHECK(narrow.status == 2);
  CHECK(narrow.err
        == "ashare: error: the chart needs --width 30 and --height 11 at least (terminal cells)\n");
  const auto small = local(home, {"chart", "600519.SH", "--svg", "x.svg", "--height", "100"});
  CHECK(small.status == 2);
  CHECK(small.err
        == "ashare: error: the chart needs --width 300 and --height 200 at least (pixels)\n");
}

TEST_CASE("chart cli: data errors say what `bars` says, with its exit status") {
  TempDir home;
  for (const auto& window : std::vector<std::vector<std::string>>{
           {"600518.SH", "2024-01-01", "2024-02-01"}, // unknown symbol
           {"600519.XX", "2024-01-01", "2024-02-01"}, // invalid symbol
           {"600519.SH", "2024-13-01", "2024-02-01"}, // invalid date
           {"600519.SH", "2024-03-01", "2024-02-01"}, // FROM after TO
       }) {
    CAPTURE(window[0]);
    CAPTURE(window[1]);
    std::vector<std::string> bars{"bars"};
    bars.insert(bars.end(), window.begin(), window.end());
    std::vector<std::string> chart{"chart"};
    chart.insert(chart.end(), window.begin(), window.end());
    const auto expected = local(home, bars);
    const auto result = local(home, chart);
    CHECK(expected.status != 0);
    CHECK(result.status == expected.status);
    CHECK(result.err == expected.err);
    CHECK(result.out.empty());
  }
  SUBCASE("an empty store") {
    TestStore empty;
    const auto expected = empty.cli({"bars", "600519.SH"});
    const auto result = empty.cli({"chart", "600519.SH"});
    CHECK(expected.status == 1);
    CHECK(result.status == 1);
    CHECK(result.err == expected.err);
    CHECK(result.err.find("ashare: error: no data in ") == 0);
  }
}

TEST_CASE("chart cli: a window without bars draws nothing and exits 0, as `bars` prints no rows") {
  TempDir home;
  const auto result = local(home, {"chart", "600519.SH", "2030-01-01", "2030-02-01"});
  CHECK(result.status == 0);
  CHECK(result.out.empty());
  CHECK(result.err
        == "ashare: note: 600519.SH has no bars from 2030-01-01 to 2030-02-01: nothing to draw\n");

  const auto svg = home.path() / "empty.svg";
  const auto written =
      local(home, {"chart", "600519.SH", "2030-01-01", "2030-02-01", "--svg", svg.string()});
  CHECK(written.status == 0);
  const auto facts = read_svg(svg);
  REQUIRE(facts.size() == 5);
  CHECK(facts[1] == "0");
}

namespace {

// What python3's xml.etree reads of an SVG's indicators, one line each: "overlay LABEL" or "pane
// LABEL", then the number of points of each of its polylines, space-separated.
constexpr const char* k_indicator_reader = R"(import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = '{http://www.w3.org/2000/svg}'
for g in root.iter(ns + 'g'):
    kind = g.get('class')
    if kind in ('overlay', 'pane') and g.get('data-label'):
        points = [str(len(p.get('points').split())) for p in g.iter(ns + 'polyline')]
        print(kind, g.get('data-label') + ':', ' '.join(points))
)";

} // namespace

TEST_CASE("chart cli: Bollinger bands over the candles, MACD and KDJ in panes below (D13)") {
  TempDir home;
  const auto dates = bar_dates(home, "2024-01-01", "2024-06-30");
  const auto bars = std::to_string(std::count(dates.begin(), dates.end(), ',') + 1);
  const std::vector<std::string> args{"chart", "600519.SH", "2024-01-01", "2024-06-30",
                                      "--overlay", "bbands,macd:6:13:5,kdj"};
  SUBCASE("SVG: one line per value of the window, as `ashare macd` prints them") {
    const auto svg = home.path() / "out.svg";
    const auto result = local(home, concat(args, {"--svg", svg.string()}));
    REQUIRE_MESSAGE(result.status == 0, describe(result));
    const auto read =
      run_process({"/usr/bin/env", "python3", "-c", k_indicator_reader, svg.string()});
    REQUIRE_MESSAGE(read.status == 0, read.err);
    // The history before the window gives every bar of it a value (D9).
    CHECK(split_lines(read.out)
          == std::vector<std::string>{"overlay BOLL 20 2: " + bars + " " + bars + " " + bars,
                                      "pane MACD 6 13 5: " + bars + " " + bars,
                                      "pane KDJ 9 3 3: " + bars + " " + bars + " " + bars});
    const auto macd = local(home, {"macd", "600519.SH", "--fast", "6", "--slow", "13", "--signal",
                                   "5", "--from", "2024-01-01", "--to", "2024-06-30", "--format",
                                   "csv"});
    REQUIRE(macd.status == 0);
    CHECK(std::to_string(split_lines(macd.out).size() - 1) == bars);
  }
  SUBCASE("terminal: the panes under the volume pane, each labelled, the size asked") {
    const auto result = local(home, concat(args, {"--width", "120", "--height", "40"}));
    REQUIRE_MESSAGE(result.status == 0, describe(result));
    const auto lines = split_lines(result.out);
    REQUIRE(lines.size() == 40);
    CHECK(lines[1].find("• BOLL 20 2") != std::string::npos);
    std::vector<std::size_t> separators;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].starts_with("─ MACD 6 13 5 ─• DIF ─+ DEA ─")
          || lines[i].starts_with("─ KDJ 9 3 3 ─• K ─+ D ─* J ─")) {
        separators.push_back(i);
      }
      CHECK(columns_of(lines[i]) <= 120);
    }
    REQUIRE(separators.size() == 2);
    CHECK(separators[0] < separators[1]);
    // KDJ's ticks include 0 and 100 (J overshoots both), on the pane's axis.
    std::string kdj_axis;
    for (std::size_t i = separators[1] + 1; i + 2 < lines.size(); ++i) {
      kdj_axis += lines[i] + "\n";
    }
    CHECK(kdj_axis.find("┤ 100") != std::string::npos);
    CHECK(kdj_axis.find("┤ 0") != std::string::npos);
    // Local and remote mode draw the same.
    TempDir remote_home;
    CHECK(remote(remote_home, concat(args, {"--width", "120", "--height", "40"})).out
          == result.out);
  }
}

// Golden screens (issue 12): the chart as a terminal of 80 and of 160 columns shows it, plain
// (NO_COLOR), the size taken from the terminal itself (one row left for the prompt). Regenerate
// with ASHARE_UPDATE_GOLDEN=1 after a deliberate change, and look at the diff.
TEST_CASE("chart cli: golden screens on a terminal of 80 and 160 columns") {
  TempDir home;
  struct Screen {
    int columns;
    int rows;
    std::string overlay;
    std::string golden;
  };
  for (const auto& screen :
       {Screen{80, 30, "sma:20", "chart_600519.SH_2024-01-01_2024-06-30_80x30.txt"},
        Screen{160, 50, "sma:20,bbands,macd,kdj",
               "chart_600519.SH_2024-01-01_2024-06-30_160x50.txt"}}) {
    CAPTURE(screen.golden);
    const std::string chart = ashare_bin() + " --db '" + chart_world().store.data_locator() + "'"
                              + " chart 600519.SH 2024-01-01 2024-06-30 --overlay "
                              + screen.overlay;
    const std::string command = "stty cols " + std::to_string(screen.columns) + " rows "
                                + std::to_string(screen.rows) + "; /usr/bin/env -i HOME="
                                + home.path().string() + " TERM=xterm NO_COLOR=1 " + chart;
    const auto result = run_process({"/usr/bin/script", "-qec", command, "/dev/null"}, 60s);
    REQUIRE_MESSAGE(result.status == 0, describe(result));
    // The pseudo-terminal turns each \n into \r\n.
    std::string screen_text;
    for (const char c : result.out) {
      if (c != '\r') {
        screen_text += c;
      }
    }
    const auto lines = split_lines(screen_text);
    CHECK(lines.size() == static_cast<std::size_t>(screen.rows - 1));
    for (const auto& line : lines) {
      CHECK(columns_of(line) <= static_cast<std::size_t>(screen.columns));
    }
    const auto path =
        fs::path(ashare::test::source_dir()) / "tests" / "blackbox" / "golden" / screen.golden;
    if (std::getenv("ASHARE_UPDATE_GOLDEN") != nullptr) {
      std::ofstream(path, std::ios::binary) << screen_text;
    }
    CHECK(read_text(path) == screen_text);
  }
}
