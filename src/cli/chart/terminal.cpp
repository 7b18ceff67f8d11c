#include "cli/chart/terminal.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

namespace ashare::cli::chart {
namespace {

// What a half row of a candle's column shows.
enum class Half { none, wick, body };

// The glyph of a cell by what its upper and lower halves show.
constexpr std::array<std::array<const char*, 3>, 3> k_candle_glyphs{{
    // lower: none, wick, body
    {" ", "╷", "╻"}, // upper none
    {"╵", "│", "╽"}, // upper wick
    {"╹", "╿", "┃"}, // upper body
}};

constexpr std::array k_volume_glyphs{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

// Inks: 0 none, 1 up (red), 2 down (green), then one per overlay, cycling.
constexpr int k_ink_none = 0;
constexpr int k_ink_up = 1;
constexpr int k_ink_down = 2;
constexpr std::array k_ink_codes{"", "31", "32"};
constexpr std::array k_overlay_codes{"33", "36", "35", "34"}; // yellow, cyan, magenta, blue
constexpr std::array k_overlay_marks{"•", "+", "*", "×"};

// The price pane's first row: below the title row and the row of the last bar and the legend.
constexpr int k_price_top = 2;

struct Cell {
  std::string glyph = " ";
  int ink = k_ink_none;
};

using Grid = std::vector<std::vector<Cell>>;

int overlay_ink(std::size_t overlay) {
  return 3 + static_cast<int>(overlay % k_overlay_codes.size());
}

std::string_view ink_code(int ink) {
  return ink < 3 ? k_ink_codes[static_cast<std::size_t>(ink)]
                 : k_overlay_codes[static_cast<std::size_t>(ink - 3)];
}

// Write `text` from column `column` of `row`, one code point per cell, clipped at the edge.
int put_text(Grid& grid, int row, int column, std::string_view text, int ink = k_ink_none) {
  auto& cells = grid[static_cast<std::size_t>(row)];
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = 1;
    while (i + length < text.size()
           && (static_cast<unsigned char>(text[i + length]) & 0xc0) == 0x80) {
      ++length;
    }
    if (column >= 0 && column < static_cast<int>(cells.size())) {
      cells[static_cast<std::size_t>(column)] = Cell{std::string(text.substr(i, length)), ink};
    }
    ++column;
    i += length;
  }
  return column;
}

// The title row, then the last bar's OHLC (its close marked on the axis) and the overlays' legend.
void draw_title(Grid& grid, const ChartData& data, const TerminalLayout& layout) {
  std::string title = chart_title(data);
  if (layout.group > 1) {
    title += "  (" + std::to_string(layout.group) + " bars per candle)";
  }
  put_text(grid, 0, 0, title);
  const auto& last = data.bars.back();
  const int ink = last.close >= last.open ? k_ink_up : k_ink_down;
  int column = put_text(grid, 1, 0, last_bar_text(data), ink);
  for (std::size_t j = 0; j < data.overlays.size(); ++j) {
    column =
        put_text(grid, 1, column + 2, k_overlay_marks[j % k_overlay_marks.size()], overlay_ink(j));
    column = put_text(grid, 1, column + 1, data.overlays[j].label);
  }
}

Half half_at(const CandleCells& cells, int half) {
  if (half >= cells.body_top && half <= cells.body_bottom) {
    return Half::body;
  }
  return half >= cells.wick_top && half <= cells.wick_bottom ? Half::wick : Half::none;
}

void draw_candles(Grid& grid, const TerminalLayout& layout) {
  for (const auto& cells : layout.cells) {
    const int ink = cells.up ? k_ink_up : k_ink_down;
    for (int row = cells.wick_top / 2; row <= cells.wick_bottom / 2; ++row) {
      const auto upper = static_cast<std::size_t>(half_at(cells, 2 * row));
      const auto lower = static_cast<std::size_t>(half_at(cells, 2 * row + 1));
      put_text(grid, k_price_top + row, cells.column, k_candle_glyphs[upper][lower], ink);
    }
  }
}

void draw_overlays(Grid& grid, const TerminalLayout& layout) {
  for (const auto& point : layout.overlay_cells) {
    auto& cell =
        grid[static_cast<std::size_t>(k_price_top + point.row)][static_cast<std::size_t>(point.column)];
    if (cell.glyph == " ") {
      cell =
          Cell{k_overlay_marks[point.overlay % k_overlay_marks.size()], overlay_ink(point.overlay)};
    }
  }
}

// The row of the separator above indicator pane `index`; index == panes.size() gives the date
// axis row.
int pane_separator(const TerminalLayout& layout, std::size_t index) {
  int row = k_price_top + 1 + layout.price_rows + layout.volume_rows;
  for (std::size_t p = 0; p < index; ++p) {
    row += 1 + layout.panes[p].rows;
  }
  return row;
}

// Each indicator pane: its label and legend on its separator row, the histogram from the zero row
// (a dotted baseline), and its lines where the bars leave room.
void draw_panes(Grid& grid, const ChartData& data, const TerminalLayout& layout) {
  for (std::size_t p = 0; p < layout.panes.size(); ++p) {
    const auto& pane = layout.panes[p];
    const int separator = pane_separator(layout, p);
    const int top = separator + 1;
    int column = put_text(grid, separator, 1, " " + data.panes[p].label + " ");
    // A legend when the pane has lines to tell apart; one line is the label's own.
    const auto& lines = data.panes[p].lines;
    for (std::size_t j = 0; lines.size() > 1 && j < lines.size(); ++j) {
      column = put_text(grid, separator, column + 1, k_overlay_marks[j % k_overlay_marks.size()],
                        overlay_ink(j));
      column = put_text(grid, separator, column, " " + data.panes[p].lines[j].label + " ");
    }
    for (const auto& bar : pane.histogram) {
      for (int row = bar.top; row <= bar.bottom; ++row) {
        put_text(grid, top + row, bar.column, "┃", bar.up ? k_ink_up : k_ink_down);
      }
    }
    // As candles over the price pane's overlays: bars first, lines where they leave room.
    for (const auto& point : pane.line_cells) {
      auto& cell = grid[static_cast<std::size_t>(top + point.row)][static_cast<std::size_t>(point.column)];
      if (cell.glyph == " ") {
        cell = Cell{k_overlay_marks[point.overlay % k_overlay_marks.size()], overlay_ink(point.overlay)};
      }
    }
    if (!data.panes[p].histogram.empty()) {
      const int zero = top + row_of(0, pane.scale, pane.rows);
      for (int x = 0; x < layout.plot_columns; ++x) {
        auto& cell = grid[static_cast<std::size_t>(zero)][static_cast<std::size_t>(x)];
        if (cell.glyph == " ") {
          cell = Cell{"┈", k_ink_none};
        }
      }
    }
  }
}

void draw_volume(Grid& grid, const TerminalLayout& layout) {
  const int top = k_price_top + 1 + layout.price_rows;
  for (const auto& cells : layout.cells) {
    const int ink = cells.up ? k_ink_up : k_ink_down;
    for (int level = 0; level < layout.volume_rows; ++level) {
      const int fill = std::clamp(cells.volume_eighths - 8 * level, 0, 8);
      if (fill > 0) {
        put_text(grid, top + layout.volume_rows - 1 - level, cells.column,
                 k_volume_glyphs[static_cast<std::size_t>(fill)], ink);
      }
    }
  }
}

void draw_axes(Grid& grid, const ChartData& data, const TerminalLayout& layout) {
  const int axis = layout.plot_columns;
  for (int row = k_price_top; row < k_price_top + layout.price_rows; ++row) {
    put_text(grid, row, axis, "│");
  }
  for (const auto& tick : layout.price_ticks) {
    put_text(grid, k_price_top + tick.row, axis, "┤ " + tick.label);
  }
  // The last close, marked in its candle's ink over any tick on its row.
  const auto& last = data.bars.back();
  put_text(grid, k_price_top + row_of(last.close, layout.scale, layout.price_rows), axis,
           "◀ " + layout.last_close, last.close >= last.open ? k_ink_up : k_ink_down);
  const int separator = k_price_top + layout.price_rows;
  const int date_axis = pane_separator(layout, layout.panes.size());
  for (int column = 0; column < axis; ++column) {
    put_text(grid, separator, column, "─");
    put_text(grid, date_axis, column, "─");
  }
  for (int row = separator + 2; row < date_axis; ++row) {
    put_text(grid, row, axis, "│");
  }
  // The volume pane: its unit on its separator, the highest volume at its top, 0 on the line
  // under it (the next separator or the date axis).
  put_text(grid, separator, 1, " VOLUME (shares) ");
  put_text(grid, separator, axis, "┼");
  put_text(grid, separator + 1, axis, "┤ " + layout.volume_label);
  for (std::size_t p = 0; p < layout.panes.size(); ++p) {
    const int pane_separator_row = pane_separator(layout, p);
    for (int column = 0; column < axis; ++column) {
      put_text(grid, pane_separator_row, column, "─");
    }
    put_text(grid, pane_separator_row, axis, "┼");
    for (const auto& tick : layout.panes[p].ticks) {
      put_text(grid, pane_separator_row + 1 + tick.row, axis, "┤ " + tick.label);
    }
  }
  put_text(grid, date_axis, axis, "┘");
  put_text(grid, pane_separator(layout, 0), axis + 1, " 0");
  for (const auto& tick : layout.date_ticks) {
    put_text(grid, date_axis, tick.column, "┬");
    put_text(grid, date_axis + 1, tick.column, tick.label);
  }
}

std::string line_of(const std::vector<Cell>& cells, bool color) {
  std::size_t end = cells.size();
  while (end > 0 && cells[end - 1].glyph == " ") {
    --end;
  }
  std::string line;
  int ink = k_ink_none;
  for (std::size_t i = 0; i < end; ++i) {
    const int wanted = color && cells[i].glyph != " " ? cells[i].ink : ink;
    if (wanted != ink) {
      line += ink != k_ink_none ? "\x1b[0m" : "";
      line += wanted != k_ink_none ? "\x1b[" + std::string(ink_code(wanted)) + "m" : "";
      ink = wanted;
    }
    line += cells[i].glyph;
  }
  return line + (ink != k_ink_none ? "\x1b[0m\n" : "\n");
}

} // namespace

std::string render_terminal(const ChartData& data, const TerminalLayout& layout, bool color) {
  Grid grid(static_cast<std::size_t>(layout.size.rows),
            std::vector<Cell>(static_cast<std::size_t>(layout.size.columns)));
  draw_title(grid, data, layout);
  draw_candles(grid, layout);
  draw_overlays(grid, layout);
  draw_volume(grid, layout);
  draw_axes(grid, data, layout);
  draw_panes(grid, data, layout);
  std::string out;
  for (const auto& cells : grid) {
    out += line_of(cells, color);
  }
  return out;
}

} // namespace ashare::cli::chart
