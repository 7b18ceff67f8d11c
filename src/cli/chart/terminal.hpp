// Drawing a TerminalLayout as text: candles in box-drawing lines at half-row precision (heavy
// body, light wick), volume bars in eighth blocks, overlays as marks in the gaps, a price axis on
// the right, a date axis at the bottom and a title row with the overlay legend. With colour, up
// candles are red and down candles green (the A-share convention) and each overlay has its own.
#pragma once

#include "cli/chart/layout.hpp"

#include <string>

namespace ashare::cli::chart {

// Return the chart `layout` of `data` as `layout.size.rows` lines, each ending in "\n" and
// without trailing blanks; with `color`, ANSI SGR colours, else plain text. Candles win where an
// overlay crosses them; among overlays the first drawn wins.
std::string render_terminal(const ChartData& data, const TerminalLayout& layout, bool color);

} // namespace ashare::cli::chart
