#include "cli/chart/layout.hpp"

#include "cli/output/table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace ashare::cli::chart {
namespace {

constexpr double k_padding = 0.04; // of the price range, above and below
constexpr int k_fixed_rows = 5; // title, last bar, separator, date axis, date labels
constexpr int k_volume_rows_divisor = 5;  // the volume pane takes a fifth of the panes' rows
constexpr int k_min_volume_rows = 2;
constexpr int k_min_price_rows = 4;
constexpr int k_min_pane_rows = 3; // an indicator pane's, below its separator row
constexpr int k_date_label_columns = 10;          // YYYY-MM-DD
constexpr std::size_t k_volume_label_width = 5; // short_volume's longest below 1000B: "12.3M"
constexpr std::array k_month_steps{1, 2, 3, 6, 12, 24, 60, 120};

// Return `value` with `decimals` digits after the point, never in exponent notation.
std::string fixed(double value, int decimals) {
  std::array<char, 64> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                 std::chars_format::fixed, decimals)
                       .ptr;
  return std::string(buffer.data(), end);
}

int month_index(domain::Date date) {
  const auto ymd = date.ymd();
  return static_cast<int>(ymd.year()) * 12 + static_cast<int>(static_cast<unsigned>(ymd.month()))
         - 1;
}

// The indices of `dates` that start a month: a change of month from the previous date, or a
// first date in its month's first week (most likely that month's first trading day).
std::vector<std::size_t> month_starts(std::span<const domain::Date> dates) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < dates.size(); ++i) {
    const bool starts = i == 0 ? static_cast<unsigned>(dates[0].ymd().day()) <= 7
                               : month_index(dates[i]) != month_index(dates[i - 1]);
    if (starts) {
      out.push_back(i);
    }
  }
  return out;
}

// Keep the `candidates` whose label fits inside [0, limit]; empty when two kept labels crowd.
std::vector<std::size_t> spaced(const std::vector<std::size_t>& candidates,
                                std::span<const double> positions,
                                double label_width,
                                double gap,
                                double limit) {
  std::vector<std::size_t> out;
  for (const auto i : candidates) {
    if (positions[i] < 0 || positions[i] + label_width > limit) {
      continue;
    }
    if (!out.empty() && positions[i] - positions[out.back()] < label_width + gap) {
      return {};
    }
    out.push_back(i);
  }
  return out;
}

// The first date that fits, then every date far enough from the previous label.
std::vector<std::size_t>
evenly_spaced(std::span<const double> positions, double label_width, double gap, double limit) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (positions[i] < 0 || positions[i] + label_width > limit) {
      continue;
    }
    if (out.empty() || positions[i] - positions[out.back()] >= label_width + gap) {
      out.push_back(i);
    }
  }
  return out;
}

// The step 1, 2 or 5 times 10^exponent, as {mantissa index, exponent}.
struct NiceStep {
  int mantissa = 0;
  int exponent = 0;
  static constexpr std::array k_mantissas{1, 2, 5};

  double value() const {
    return k_mantissas[static_cast<std::size_t>(mantissa)] * std::pow(10.0, exponent);
  }
  void grow() {
    if (++mantissa == 3) {
      mantissa = 0;
      ++exponent;
    }
  }
};

std::vector<PriceTick> ticks_at(const PriceScale& scale, const NiceStep& step) {
  std::vector<PriceTick> out;
  const double size = step.value();
  const auto first = static_cast<std::int64_t>(std::ceil(scale.low / size));
  const auto last = static_cast<std::int64_t>(std::floor(scale.high / size));
  for (auto k = first; k <= last; ++k) {
    const double value = k == 0 ? 0.0 : static_cast<double>(k) * size;
    out.push_back({value, fixed(value, std::max(0, -step.exponent))});
  }
  return out;
}

std::vector<RowTick> row_ticks(const PriceScale& scale, int price_rows) {
  std::vector<RowTick> out;
  for (const auto& tick : price_ticks(scale, std::max(2, price_rows / 3))) {
    const int row = row_of(tick.value, scale, price_rows);
    if (out.empty() || out.back().row != row) {
      out.push_back({row, tick.label});
    }
  }
  return out;
}

CandleCells cells_of(const Candle& candle, const PriceScale& scale, int price_rows) {
  CandleCells cells;
  cells.body_top = half_of(std::max(candle.open, candle.close), scale, price_rows);
  cells.body_bottom = half_of(std::min(candle.open, candle.close), scale, price_rows);
  cells.wick_top = half_of(candle.high, scale, price_rows);
  cells.wick_bottom = half_of(candle.low, scale, price_rows);
  cells.up = is_up(candle);
  return cells;
}

int volume_eighths(std::int64_t volume, std::int64_t max_volume, int volume_rows) {
  if (volume <= 0 || max_volume <= 0) {
    return 0;
  }
  const double share = static_cast<double>(volume) / static_cast<double>(max_volume);
  return std::max(1, static_cast<int>(std::lround(share * volume_rows * 8)));
}

// The points of one line in a pane of `rows` rows scaled by `scale`: at every column from the
// first candle to the last, its value at the candle there, or interpolated between the candles
// on either side of a gap column.
void add_line_cells(const std::vector<CandleCells>& candles,
                    std::span<const double> values,
                    const PriceScale& scale,
                    int rows,
                    std::size_t index,
                    std::vector<OverlayCell>& out) {
  for (std::size_t i = 0; i < candles.size(); ++i) {
    const int column = candles[i].column;
    const bool has_next = i + 1 < candles.size();
    const int next_column = has_next ? candles[i + 1].column : column + 1;
    for (int x = column; x < next_column; ++x) {
      const double share = static_cast<double>(x - column) / (next_column - column);
      const double value =
          x == column ? values[i] : values[i] + (values[i + 1] - values[i]) * share;
      if (std::isfinite(value)) {
        out.push_back({x, row_of(value, scale, rows), index});
      }
    }
  }
}

// Widen [low, high] to hold every finite value of `values`.
void extend(double& low, double& high, std::span<const double> values) {
  for (const double value : values) {
    if (std::isfinite(value)) {
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
}

// The scale of [low, high], padded by k_padding of the range (by 1% of the value when the range is
// 0); the default scale when nothing was seen.
PriceScale padded(double low, double high) {
  if (!std::isfinite(low)) {
    return PriceScale{};
  }
  const double range = high - low;
  const double pad = range > 0 ? range * k_padding : (low != 0 ? std::abs(low) * 0.01 : 1.0);
  return PriceScale{low - pad, high + pad};
}

PaneLayout layout_pane(const IndicatorPane& pane,
                       const std::vector<CandleCells>& candles,
                       int group,
                       int rows) {
  PaneLayout out;
  out.rows = rows;
  out.scale = pane_scale(pane);
  out.ticks = row_ticks(out.scale, rows);
  for (std::size_t j = 0; j < pane.lines.size(); ++j) {
    add_line_cells(candles, merge_values(pane.lines[j].values, group), out.scale, rows, j,
                   out.line_cells);
  }
  if (!pane.histogram.empty()) {
    const int zero = row_of(0, out.scale, rows);
    const auto merged = merge_values(pane.histogram, group);
    for (std::size_t i = 0; i < candles.size() && i < merged.size(); ++i) {
      // From the zero row (its baseline stays visible) to the value's row; none when they meet.
      const int row = std::isfinite(merged[i]) ? row_of(merged[i], out.scale, rows) : zero;
      if (row < zero) {
        out.histogram.push_back({candles[i].column, row, zero - 1, true});
      } else if (row > zero) {
        out.histogram.push_back({candles[i].column, zero + 1, row, false});
      }
    }
  }
  return out;
}

// The plot's columns between its one-column margins; candles one column each, `step` apart.
constexpr int k_plot_margin = 1;

int usable_columns(const TerminalLayout& layout) {
  return layout.plot_columns - 2 * k_plot_margin;
}

void place_candles(TerminalLayout& layout) {
  const int count = static_cast<int>(layout.candles.size());
  const int step = std::max(1, usable_columns(layout) / count);
  // Centred: half the columns the whole steps leave go before the first candle, and a candle sits
  // in the middle of its step.
  const int first = k_plot_margin + (usable_columns(layout) - step * count) / 2 + (step - 1) / 2;
  std::int64_t max_volume = 0;
  for (const auto& candle : layout.candles) {
    max_volume = std::max(max_volume, candle.volume);
  }
  layout.volume_label = short_volume(max_volume);
  for (int i = 0; i < count; ++i) {
    const auto& candle = layout.candles[static_cast<std::size_t>(i)];
    auto cells = cells_of(candle, layout.scale, layout.price_rows);
    cells.column = first + i * step;
    cells.volume_eighths = volume_eighths(candle.volume, max_volume, layout.volume_rows);
    layout.cells.push_back(cells);
  }
}

void place_date_ticks(TerminalLayout& layout) {
  std::vector<domain::Date> dates;
  std::vector<double> positions;
  for (std::size_t i = 0; i < layout.candles.size(); ++i) {
    dates.push_back(layout.candles[i].first_date);
    positions.push_back(layout.cells[i].column);
  }
  for (const auto i : date_ticks(dates, positions, k_date_label_columns, 1, layout.size.columns)) {
    layout.date_ticks.push_back({layout.cells[i].column, dates[i].iso()});
  }
}

} // namespace

bool is_up(const Candle& candle) {
  return candle.close >= candle.open;
}

std::string chart_title(const ChartData& data, std::string_view separator) {
  std::string title = data.symbol;
  title += separator;
  if (!data.bars.empty()) {
    title += data.bars.front().trade_date.iso() + " .. " + data.bars.back().trade_date.iso();
    title += separator;
  }
  return title + (data.adjusted ? "forward-adjusted" : "raw prices");
}

int bars_per_candle(std::size_t bar_count, int max_candles) {
  const auto columns = static_cast<std::size_t>(std::max(1, max_candles));
  return std::max(1, static_cast<int>((bar_count + columns - 1) / columns));
}

std::vector<Candle> merge_bars(std::span<const domain::Bar> bars, int group) {
  std::vector<Candle> out;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& bar = bars[i];
    if (i % static_cast<std::size_t>(group) == 0) {
      out.push_back(
          {bar.trade_date, bar.trade_date, bar.open, bar.high, bar.low, bar.close, bar.volume, 1});
      continue;
    }
    auto& candle = out.back();
    candle.last_date = bar.trade_date;
    candle.close = bar.close;
    candle.high = std::max(candle.high, bar.high);
    candle.low = std::min(candle.low, bar.low);
    candle.volume += bar.volume;
    ++candle.bars;
  }
  return out;
}

std::vector<double> merge_values(std::span<const double> values, int group) {
  std::vector<double> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i % static_cast<std::size_t>(group) == 0) {
      out.push_back(values[i]);
    } else {
      out.back() = values[i];
    }
  }
  return out;
}

double PriceScale::from_top(double price) const {
  return (high - price) / (high - low);
}

PriceScale price_scale(const ChartData& data) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (const auto& bar : data.bars) {
    low = std::min(low, bar.low);
    high = std::max(high, bar.high);
  }
  for (const auto& overlay : data.overlays) {
    extend(low, high, overlay.values);
    for (const auto& band : overlay.bands) {
      extend(low, high, band);
    }
  }
  return padded(low, high);
}

PriceScale pane_scale(const IndicatorPane& pane) {
  double low = std::numeric_limits<double>::infinity();
  double high = -low;
  for (const auto& line : pane.lines) {
    extend(low, high, line.values);
  }
  if (!pane.histogram.empty()) {
    extend(low, high, pane.histogram);
    const double zero[] = {0.0};
    extend(low, high, zero);
  }
  return padded(low, high);
}

std::vector<PriceTick> price_ticks(const PriceScale& scale, int max_ticks) {
  // From a tenth of the even step up, the finest nice step that gives no more than max_ticks.
  const double even = (scale.high - scale.low) / std::max(1, max_ticks);
  NiceStep step{0, static_cast<int>(std::floor(std::log10(even))) - 1};
  auto ticks = ticks_at(scale, step);
  while (static_cast<int>(ticks.size()) > std::max(1, max_ticks)) {
    step.grow();
    ticks = ticks_at(scale, step);
  }
  return ticks;
}

std::string short_volume(std::int64_t volume) {
  constexpr std::array<std::pair<double, const char*>, 3> k_units{
      {{1e9, "B"}, {1e6, "M"}, {1e3, "K"}}};
  for (const auto& [unit, suffix] : k_units) {
    const double scaled = static_cast<double>(volume) / unit;
    if (scaled >= 1) {
      std::string text = fixed(scaled, scaled < 100 ? 1 : 0);
      if (text.size() > 2 && text.ends_with(".0")) {
        text.resize(text.size() - 2);
      }
      return text + suffix;
    }
  }
  return std::to_string(volume);
}

std::string last_bar_text(const ChartData& data) {
  const auto& bar = data.bars.back();
  const double prices[] = {bar.open, bar.high, bar.low, bar.close};
  const auto text = fixed_decimals(prices);
  return bar.trade_date.iso() + "  O " + text[0] + "  H " + text[1] + "  L " + text[2] + "  C "
         + text[3] + "  V " + short_volume(bar.volume);
}

std::vector<std::size_t> date_ticks(std::span<const domain::Date> dates,
                                    std::span<const double> positions,
                                    double label_width,
                                    double gap,
                                    double limit) {
  const auto starts = month_starts(dates);
  if (starts.size() >= 2) {
    for (const int step : k_month_steps) {
      std::vector<std::size_t> candidates;
      for (const auto i : starts) {
        if (month_index(dates[i]) % step == 0) {
          candidates.push_back(i);
        }
      }
      auto ticks = spaced(candidates, positions, label_width, gap, limit);
      if (!ticks.empty()) {
        return ticks;
      }
    }
  }
  return evenly_spaced(positions, label_width, gap, limit);
}

int half_of(double price, const PriceScale& scale, int price_rows) {
  const int halves = 2 * price_rows;
  const double half = std::floor(scale.from_top(price) * halves);
  return static_cast<int>(std::clamp(half, 0.0, static_cast<double>(halves - 1)));
}

int row_of(double price, const PriceScale& scale, int price_rows) {
  return half_of(price, scale, price_rows) / 2;
}

int min_terminal_rows(std::size_t panes) {
  return k_min_terminal_rows + static_cast<int>(panes) * (1 + k_min_pane_rows);
}

TerminalLayout layout_terminal(const ChartData& data, TerminalSize size) {
  TerminalLayout layout;
  layout.size = size;
  const int pane_count = static_cast<int>(data.panes.size());
  const int rows = size.rows - k_fixed_rows - pane_count; // a separator above each indicator pane
  layout.volume_rows = std::max(k_min_volume_rows, rows / k_volume_rows_divisor);
  int pane_rows = std::max(k_min_pane_rows, rows / k_volume_rows_divisor);
  if (pane_count > 0 && rows - layout.volume_rows - pane_count * pane_rows < k_min_price_rows) {
    pane_rows = std::max(k_min_pane_rows,
                         (rows - layout.volume_rows - k_min_price_rows) / pane_count);
  }
  layout.price_rows = rows - layout.volume_rows - pane_count * pane_rows;
  layout.scale = price_scale(data);
  layout.price_ticks = row_ticks(layout.scale, layout.price_rows);
  const auto& last = data.bars.back();
  const double prices[] = {last.open, last.high, last.low, last.close};
  layout.last_close = fixed_decimals(prices)[3];
  std::size_t label_width = std::max(k_volume_label_width, layout.last_close.size());
  for (const auto& tick : layout.price_ticks) {
    label_width = std::max(label_width, tick.label.size());
  }
  for (const auto& pane : data.panes) {
    for (const auto& tick : row_ticks(pane_scale(pane), pane_rows)) {
      label_width = std::max(label_width, tick.label.size());
    }
  }
  layout.plot_columns = size.columns - 2 - static_cast<int>(label_width);
  layout.group = bars_per_candle(data.bars.size(), usable_columns(layout));
  layout.candles = merge_bars(data.bars, layout.group);
  place_candles(layout);
  for (std::size_t j = 0; j < data.overlays.size(); ++j) {
    const auto& overlay = data.overlays[j];
    add_line_cells(layout.cells, merge_values(overlay.values, layout.group), layout.scale,
                   layout.price_rows, j, layout.overlay_cells);
    for (const auto& band : overlay.bands) {
      add_line_cells(layout.cells, merge_values(band, layout.group), layout.scale,
                     layout.price_rows, j, layout.overlay_cells);
    }
  }
  for (const auto& pane : data.panes) {
    layout.panes.push_back(layout_pane(pane, layout.cells, layout.group, pane_rows));
  }
  place_date_ticks(layout);
  return layout;
}

} // namespace ashare::cli::chart
