// The SVG chart (cli/chart/svg): a well-formed standalone SVG 1.1 document with one candle group
// per bar (classed up or down, dated), the volume pane, overlays as polylines broken at gaps,
// escaped text and numbers without exponents.
#include "chart_testdata.hpp"

#include "cli/chart/svg.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <string>
#include <vector>

using namespace ashare;
using namespace ashare::cli::chart;

namespace {


ChartData sample() {
  ChartData data = test::four_bar_chart();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  data.overlays.push_back({"SMA 2", {nan, 10.5, 10, 10.1}});
  data.overlays.push_back({"EMA 1", {11, nan, 10, 10.2}});
  return data;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// Whether the elements of `xml` nest properly (a small check of well-formedness: every start tag
// closed in order, attributes quoted, no stray '<' or '&').
bool well_formed(const std::string& xml) {
  static const std::regex k_tag(R"(<(/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<&]*")*)\s*(/?)>)");
  static const std::regex k_text(R"(^(?:[^<&]|&(?:amp|lt|gt|quot|apos);)*$)");
  std::vector<std::string> open;
  std::size_t at = xml.find("?>");
  if (!xml.starts_with("<?xml ") || at == std::string::npos) {
    return false;
  }
  at += 2;
  while (at < xml.size()) {
    const auto next = xml.find('<', at);
    if (!std::regex_match(xml.substr(at, next - at), k_text)) {
      return false;
    }
    if (next == std::string::npos) {
      break;
    }
    const auto end = xml.find('>', next);
    std::smatch tag;
    const std::string text = xml.substr(next, end - next + 1);
    if (end == std::string::npos || !std::regex_match(text, tag, k_tag)) {
      return false;
    }
    if (tag[1] == "/") {
      if (open.empty() || open.back() != tag[2]) {
        return false;
      }
      open.pop_back();
    } else if (tag[4] != "/") {
      open.push_back(tag[2]);
    }
    at = end + 1;
  }
  return open.empty();
}

} // namespace

TEST_CASE("cli::svg_number") {
  struct Row {
    double value;
    const char* text;
  };
  for (const auto& row : std::vector<Row>{{12.5, "12.5"},
                                          {3, "3"},
                                          {0, "0"},
                                          {0.004, "0"},
                                          {-0.001, "0"},
                                          {1e-7, "0"},
                                          {-2.25, "-2.25"},
                                          {401.146, "401.15"},
                                          {123456789.123, "123456789.12"},
                                          {1e20, "100000000000000000000"}}) {
    CHECK(svg_number(row.value) == row.text);
  }
}

TEST_CASE("cli::xml_escape") {
  CHECK(xml_escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f");
  CHECK(xml_escape("600519.SH · 2024") == "600519.SH · 2024");
}

TEST_CASE("cli::render_svg") {
  const auto data = sample();
  const auto svg = render_svg(data, {800, 400});

  SUBCASE("a standalone SVG 1.1 document") {
    CHECK(well_formed(svg));
    CHECK(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"800\" "
                   "height=\"400\" viewBox=\"0 0 800 400\">")
          != std::string::npos);
    CHECK(svg.find("<title>600519.SH, 2024-01-02 .. 2024-01-05, forward-adjusted</title>")
          != std::string::npos);
  }
  SUBCASE("one candle per bar, classed up or down and dated, each with a wick and a body") {
    CHECK(count(svg, "<g class=\"candle ") == data.bars.size());
    CHECK(count(svg, "<g class=\"candle up\" data-date=\"2024-01-02\">") == 1);
    CHECK(count(svg, "<g class=\"candle down\" data-date=\"2024-01-03\">") == 1);
    CHECK(count(svg, "<g class=\"candle up\" data-date=\"2024-01-04\">") == 1); // doji: up
    CHECK(count(svg, "<line class=\"wick\"") == data.bars.size());
    CHECK(count(svg, "<rect class=\"body\"") == data.bars.size());
    CHECK(count(svg, "<rect class=\"volume ") == data.bars.size());
    CHECK(svg.find("data-date=\"2024-01-02\"") < svg.find("data-date=\"2024-01-05\""));
  }
  SUBCASE("overlays: a legend entry each, polylines broken where values are missing") {
    CHECK(count(svg, "<g class=\"overlay\" data-label=\"SMA 2\">") == 1);
    CHECK(count(svg, "<g class=\"overlay\" data-label=\"EMA 1\">") == 1);
    CHECK(count(svg, "<polyline ") == 3); // SMA: 1 run; EMA: 2 runs
    CHECK(svg.find(">SMA 2</text>") != std::string::npos);
  }
  SUBCASE("numbers never use exponent notation") {
    static const std::regex k_attribute(R"rx(="([^"]*)")rx");
    static const std::regex k_exponent(R"(\d[eE][+-]?\d)");
    std::size_t attributes = 0;
    for (std::sregex_iterator it(svg.begin(), svg.end(), k_attribute), end; it != end; ++it) {
      CHECK_FALSE(std::regex_search((*it)[1].str(), k_exponent));
      ++attributes;
    }
    CHECK(attributes > 50);
  }
  SUBCASE("a body spans the y of its open and close, a wick those of its high and low") {
    // Price pane: y = top + (high - price) / (high - low) * height; check the order only.
    static const std::regex k_candle(
        R"rx(data-date="2024-01-02"><line class="wick" x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)"/>\n<rect class="body" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/>)rx");
    std::smatch match;
    REQUIRE(std::regex_search(svg, match, k_candle));
    const double high_y = std::stod(match[1]);
    const double low_y = std::stod(match[2]);
    const double close_y = std::stod(match[3]);
    const double open_y = close_y + std::stod(match[4]);
    CHECK(high_y < close_y);
    CHECK(close_y < open_y);
    CHECK(open_y < low_y);
    // 12 -> 11 is a third of 12 -> 9, as 11 -> 10 is.
    CHECK((close_y - high_y) == doctest::Approx((open_y - close_y)).epsilon(0.01));
    CHECK((low_y - open_y) == doctest::Approx((open_y - close_y)).epsilon(0.01));
  }
  SUBCASE("the last bar: its OHLC in the legend, its close marked across the pane and on the axis") {
    // Issue 12. The last bar (10 -> 10.2) is up: red.
    CHECK(svg.find("<text x=\"12\" y=\"44\" class=\"last up\">2024-01-05  O 10.0  H 10.4  L 9.9  C "
                   "10.2  V 80</text>")
          != std::string::npos);
    CHECK(count(svg, "<line class=\"last-line up\"") == 1);
    CHECK(svg.find("class=\"last up\">◀ 10.2</text>") != std::string::npos);
    CHECK(svg.find(">0</text>") != std::string::npos); // the volume pane's base
  }
  SUBCASE("padding: no candle touches the frame") {
    static const std::regex k_wick(R"rx(<line class="wick" x1="([\d.]+)")rx");
    static const std::regex k_frame(R"rx(<rect class="frame" x="([\d.]+)" y="[\d.]+" width="([\d.]+)")rx");
    std::smatch frame;
    REQUIRE(std::regex_search(svg, frame, k_frame));
    const double left = std::stod(frame[1]);
    const double right = left + std::stod(frame[2]);
    std::vector<double> xs;
    for (std::sregex_iterator it(svg.begin(), svg.end(), k_wick), end; it != end; ++it) {
      xs.push_back(std::stod((*it)[1]));
    }
    REQUIRE(xs.size() == 4);
    CHECK(xs.front() - left >= 8);
    CHECK(right - xs.back() >= 8);
  }
  SUBCASE("text is escaped") {
    auto odd = data;
    odd.symbol = "A&B<C>";
    const auto escaped = render_svg(odd, {800, 400});
    CHECK(well_formed(escaped));
    CHECK(escaped.find("A&amp;B&lt;C&gt;") != std::string::npos);
  }
  SUBCASE("no bars: the title and a note, no candles") {
    ChartData empty;
    empty.symbol = "600519.SH";
    const auto none = render_svg(empty, {800, 400});
    CHECK(well_formed(none));
    CHECK(count(none, "<g class=\"candle ") == 0);
    CHECK(none.find(">no bars in this window</text>") != std::string::npos);
  }
}

TEST_CASE("cli::render_svg: Bollinger bands over the candles, MACD in a pane of its own") {
  auto data = test::four_bar_chart();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  data.overlays.push_back({"BOLL 2 2", {nan, 10.5, 10.5, 10.1}, {{nan, 12.5, 11, 10.3}, {nan, 8.5, 10, 9.9}}});
  data.panes.push_back({"MACD 2 3 2",
                        {{"DIF", {nan, 0.6, 0.1, -0.5}}, {"DEA", {nan, 0.2, 0.3, 0.1}}},
                        {nan, 0.8, -0.4, -1.2}});
  const auto svg = render_svg(data, {800, 500});
  CHECK(well_formed(svg));
  // One legend entry for the three lines of the bands, all in its colour.
  CHECK(count(svg, ">BOLL 2 2</text>") == 1);
  const auto bands_at = svg.find("<g class=\"overlay\" data-label=\"BOLL 2 2\">");
  REQUIRE(bands_at != std::string::npos);
  const auto bands = svg.substr(bands_at, svg.find("</g>", bands_at) - bands_at);
  CHECK(count(bands, "<polyline class=\"overlay\" stroke=\"#f08c00\"") == 3);
  // The pane: label, a legend entry per line, a polyline per line, a bar per value, zero.
  CHECK(count(svg, "<g class=\"pane\" data-label=\"MACD 2 3 2\">") == 1);
  CHECK(svg.find(">MACD 2 3 2</text>") != std::string::npos);
  CHECK(svg.find(">DIF</text>") != std::string::npos);
  CHECK(svg.find(">DEA</text>") != std::string::npos);
  CHECK(count(svg, "<rect class=\"volume ") == 4 + 3); // volume bars, then the histogram's
  CHECK(count(svg, "<line class=\"zero\"") == 1);
  // The pane lies below the volume pane, and the dates below the pane.
  const auto frame_y = [&](std::size_t nth) {
    static const std::regex k_frame(R"rx(<rect class="frame" x="[\d.]+" y="([\d.]+)")rx");
    std::vector<double> ys;
    for (std::sregex_iterator it(svg.begin(), svg.end(), k_frame), end; it != end; ++it) {
      ys.push_back(std::stod((*it)[1]));
    }
    std::sort(ys.begin(), ys.end());
    return nth < ys.size() ? ys[nth] : -1.0;
  };
  CHECK(frame_y(0) < frame_y(1)); // price, volume
  CHECK(frame_y(1) < frame_y(2)); // volume, MACD
  const auto date_label = svg.find(">2024-01-02</text>");
  REQUIRE(date_label != std::string::npos);
  static const std::regex k_zero(R"rx(<line class="zero" x1="[\d.]+" y1="([\d.]+)")rx");
  std::smatch zero;
  REQUIRE(std::regex_search(svg, zero, k_zero));
  CHECK(std::stod(zero[1]) > frame_y(2));
}
