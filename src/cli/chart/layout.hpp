// The geometry of `ashare chart`, apart from any output: what a chart shows (ChartData), the
// candles (consecutive bars merged when they outnumber the columns), the price scale and its
// ticks, the date ticks, and the terminal model in rows and columns that chart_terminal draws.
// The SVG renderer (chart_svg) reuses the scale and the ticks. Pure functions, no I/O.
#pragma once

#include "core/domain/bar.hpp"
#include "core/domain/date.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ashare::cli::chart {

// A line drawn over the candles or in an indicator pane: its legend label ("SMA 20") and one value
// per bar (NaN: none); `bands` are more lines in the same ink without a legend entry of their own
// (Bollinger's upper and lower bands).
struct Overlay {
  std::string label;
  std::vector<double> values;
  std::vector<std::vector<double>> bands = {};
};

// An indicator drawn in a pane of its own below the volume pane (RSI, MACD, KDJ, ATR): its label
// ("MACD 12 26 9"), its lines, and, for MACD, a histogram drawn as bars from zero (one value per
// bar; empty when none).
struct IndicatorPane {
  std::string label;
  std::vector<Overlay> lines;
  std::vector<double> histogram = {};
};

// What a chart shows: one symbol's bars in ascending date order, the overlays drawn over its
// candles and the indicator panes below them, top to bottom.
struct ChartData {
  std::string symbol;
  bool adjusted = true;
  std::vector<domain::Bar> bars;
  std::vector<Overlay> overlays;
  std::vector<IndicatorPane> panes = {};
};

// One drawn candle: one bar, or `bars` consecutive bars merged (the open of the first, the close
// of the last, the highest high, the lowest low, the summed volume).
struct Candle {
  domain::Date first_date;
  domain::Date last_date;
  double open = 0;
  double high = 0;
  double low = 0;
  double close = 0;
  std::int64_t volume = 0;
  int bars = 1;
};

// Return whether `candle` went up: close >= open (red on A-share screens, else green).
bool is_up(const Candle& candle);

// Return the title: symbol, the dates of the first and last bar, and the adjustment mode, joined
// by `separator`.
std::string chart_title(const ChartData& data, std::string_view separator = "  ");

// Return how many consecutive bars make one candle so that `bar_count` bars fit in
// `max_candles` (>= 1) candles: ceil(bar_count / max_candles), at least 1.
int bars_per_candle(std::size_t bar_count, int max_candles);

// Return `bars` merged `group` (>= 1) at a time, as Candle says; the last candle may hold fewer.
std::vector<Candle> merge_bars(std::span<const domain::Bar> bars, int group);

// Return `values` (one per bar) merged like merge_bars: the value at each group's last bar.
std::vector<double> merge_values(std::span<const double> values, int group);

// The price range a chart shows, high at the top.
struct PriceScale {
  double low = 0;
  double high = 1;

  // Return where `price` sits as a fraction of the height: 0 at `high`, 1 at `low`.
  double from_top(double price) const;
};

// Return the scale of `data`: its lowest low to its highest high (overlay values included),
// padded by 4% of the range on each side (by 1% of the price when the range is 0).
PriceScale price_scale(const ChartData& data);

// Return the scale of `pane`: the range of its lines and histogram (and zero, when it has a
// histogram), padded as price_scale pads.
PriceScale pane_scale(const IndicatorPane& pane);

struct PriceTick {
  double value = 0;
  std::string label; // as many decimals as the step needs: "1700", "12.5", "3.05"
};

// Return the round prices inside `scale` at a step of 1, 2 or 5 times a power of ten, chosen so
// that there are at most `max_ticks` (>= 1) of them, lowest first.
std::vector<PriceTick> price_ticks(const PriceScale& scale, int max_ticks);

// Return a volume in shares the short way: 950, 12.3K, 4.8M, 1.2B.
std::string short_volume(std::int64_t volume);

// Return the last bar of `data` (at least one) as the chart's second row says it:
// "2024-06-28  O 1410.00  H 1420.80  L 1403.00  C 1418.99  V 3.2M", the prices at one number of
// decimals as tables print them (fixed_decimals: no digit dropped).
std::string last_bar_text(const ChartData& data);

// Return which of `dates` (ascending, drawn at `positions`) get a date label of `label_width`
// (in the positions' unit) with at least `gap` between labels, none running past `limit`:
// the first trading day of every month, or of every 2, 3, 6, 12, ... months when those crowd;
// evenly spaced dates when the window holds fewer than two month starts.
std::vector<std::size_t> date_ticks(std::span<const domain::Date> dates,
                                    std::span<const double> positions,
                                    double label_width,
                                    double gap,
                                    double limit);

// A chart's size in the terminal.
struct TerminalSize {
  int columns = 100;
  int rows = 30;
};

inline constexpr int k_min_terminal_columns = 30;
inline constexpr int k_min_terminal_rows = 11;

// One candle in the terminal. Rows count half rows ("halves") from the top of the price pane, so
// half blocks can draw it at twice the row precision: text row r holds halves 2r and 2r + 1.
struct CandleCells {
  int column = 0;
  int body_top = 0;       // the half of max(open, close)
  int body_bottom = 0;    // the half of min(open, close)
  int wick_top = 0;       // the half of high
  int wick_bottom = 0;    // the half of low
  int volume_eighths = 0; // volume bar height in eighths of a row, proportional to the volume
  bool up = true;
};

// A point of an overlay line: plot column, text row of its pane, overlay (or pane line) index.
struct OverlayCell {
  int column = 0;
  int row = 0;
  std::size_t overlay = 0;
};

// A histogram bar of an indicator pane: its column, the rows it fills (top <= bottom) between the
// zero row (excluded) and the value's row, and whether it is positive (red, as an up candle, above
// zero) or negative (green, below).
struct HistogramCells {
  int column = 0;
  int top = 0;
  int bottom = 0;
  bool up = true;
};

struct RowTick {
  int row = 0;
  std::string label;
};

struct ColumnTick {
  int column = 0;
  std::string label;
};

// An indicator pane in the terminal: `rows` text rows below a separator row that carries its
// label; rows count from the pane's first row.
struct PaneLayout {
  int rows = 0;
  PriceScale scale;
  std::vector<RowTick> ticks;
  std::vector<OverlayCell> line_cells;
  std::vector<HistogramCells> histogram;
};

// The terminal chart, top to bottom: the title row, the row of the last bar (last_bar_text) and
// the overlays' legend, `price_rows` of candles, a separator row,
// `volume_rows` of volume bars, then for each indicator pane a separator row and its rows, the
// date axis row and the date label row. The plot takes `plot_columns` on the left; the axis and
// its labels take the rest.
struct TerminalLayout {
  TerminalSize size;
  int plot_columns = 0;
  int price_rows = 0;
  int volume_rows = 0;
  int group = 1; // bars per candle
  PriceScale scale;
  std::vector<Candle> candles;
  std::vector<CandleCells> cells; // one per candle
  std::vector<OverlayCell> overlay_cells;
  std::vector<RowTick> price_ticks;   // rows of the price pane
  std::string last_close;             // marked on the axis at its row, as last_bar_text has it
  std::string volume_label;           // the highest volume, at the volume pane's top row
  std::vector<PaneLayout> panes;      // as ChartData::panes
  std::vector<ColumnTick> date_ticks; // plot columns
};

// Return the fewest rows a terminal chart with `panes` indicator panes needs.
int min_terminal_rows(std::size_t panes);

// Return the half (see CandleCells) of `price` in a price pane of `price_rows` rows; monotonic:
// a higher price never has a larger half. Prices outside `scale` are clamped to the pane.
int half_of(double price, const PriceScale& scale, int price_rows);

// Return the text row of `price`: half_of(...) / 2.
int row_of(double price, const PriceScale& scale, int price_rows);

// Return the terminal model of `data` (at least one bar) in `size` (at least
// k_min_terminal_columns by min_terminal_rows(data.panes.size())). Candles are one column each,
// the same whole number of columns apart (so that no gap looks like a missing session), centred
// in the plot with at least one blank column on either side; when there are more bars than that
// leaves columns, bars_per_candle() consecutive bars share one candle.
TerminalLayout layout_terminal(const ChartData& data, TerminalSize size);

} // namespace ashare::cli::chart
