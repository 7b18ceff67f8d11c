// Drawing a chart as a standalone SVG 1.1 document for reports and web pages: a title with the
// symbol, window and adjustment mode, a legend, price and date axes with gridlines, one candle per
// bar (red up, green down), a volume pane and the overlays as polylines. Each candle is a
// `<g class="candle up|down" data-date="YYYY-MM-DD">` holding a `<line class="wick">` and a
// `<rect class="body">`, so tools can count and find them.
#pragma once

#include "cli/chart/layout.hpp"

#include <string>
#include <string_view>

namespace ashare::cli::chart {

// A chart's size in pixels.
struct SvgSize {
  int width = 1000;
  int height = 600;
};

inline constexpr int k_min_svg_width = 300;
inline constexpr int k_min_svg_height = 200;

// Return `data` drawn as an SVG document of `size` (at least k_min_svg_width by
// k_min_svg_height); with no bars, the title and a note that the window holds none.
std::string render_svg(const ChartData& data, SvgSize size);

// Return `text` with &, <, >, " and ' written as XML entities.
std::string xml_escape(std::string_view text);

// Return `value` rounded to 2 decimals, without exponent notation or trailing zeros: "12.5", "3".
std::string svg_number(double value);

} // namespace ashare::cli::chart
