#include "cli/chart/svg.hpp"

#include "cli/output/table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <span>
#include <vector>

namespace ashare::cli::chart {
namespace {

constexpr double k_margin = 12;
constexpr double k_title_height = 40; // above the legend
constexpr double k_legend_line = 18;
constexpr double k_bottom = 30;   // date labels
constexpr double k_pane_gap = 14; // between the price and the volume pane
constexpr double k_volume_share = 0.2;
constexpr double k_char_width = 7;  // of 12px sans-serif digits, for spacing labels
constexpr double k_title_em = 0.62; // a bold title character's width per pixel of font size
constexpr double k_date_label_width = 70;
constexpr double k_body_share = 0.7; // of a bar's slot
constexpr double k_plot_padding = 8; // between the frame and the first and last candles
constexpr std::array k_overlay_colors{"#f08c00", "#1c7ed6", "#ae3ec9",
                                      "#0c8599", "#a0522d", "#495057"};

constexpr const char* k_style =
    "<style>\n"
    "text{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;font-size:12px;fill:#333}\n"
    ".title{font-weight:bold}\n"
    ".note{font-size:14px;fill:#666}\n"
    ".pane{font-size:11px;fill:#888}\n"
    ".frame{fill:none;stroke:#999;stroke-width:1}\n"
    ".grid{stroke:#e6e6e6;stroke-width:1}\n"
    ".up{fill:#e03131;stroke:#e03131}\n"
    ".down{fill:#2b8a3e;stroke:#2b8a3e}\n"
    ".wick{stroke-width:1}\n"
    ".volume{opacity:0.55;stroke:none}\n"
    ".overlay{fill:none;stroke-width:1.5;stroke-linejoin:round}\n"
    ".zero{stroke:#999;stroke-width:1;stroke-dasharray:3 3}\n"
    ".last{font-weight:bold}\n"
    ".last.up{fill:#e03131;stroke:none}\n"
    ".last.down{fill:#2b8a3e;stroke:none}\n"
    ".last-line{stroke-width:1;stroke-dasharray:4 3;fill:none}\n"
    "</style>\n";

// Where an indicator pane goes, in pixels, and its scale.
struct PaneFrame {
  double top = 0;
  double bottom = 0;
  PriceScale scale;

  double y_of(double value) const { return top + scale.from_top(value) * (bottom - top); }
};

// Where things go, in pixels.
struct Frame {
  double left = 0;
  double right = 0;
  double price_top = 0;
  double price_bottom = 0;
  double volume_top = 0;
  double volume_bottom = 0;
  double slot = 0; // width per bar
  PriceScale scale;
  std::int64_t max_volume = 0;
  std::vector<PaneFrame> panes; // as ChartData::panes, below the volume pane

  // The bottom of the lowest pane, above the date labels.
  double bottom() const { return panes.empty() ? volume_bottom : panes.back().bottom; }
  double x_of(std::size_t i) const {
    return left + k_plot_padding + slot * (static_cast<double>(i) + 0.5);
  }
  double y_of(double price) const {
    return price_top + scale.from_top(price) * (price_bottom - price_top);
  }
};

std::string attribute(const char* name, double value) {
  return std::string(" ") + name + "=\"" + svg_number(value) + "\"";
}

// Where each overlay's legend item starts (its line sample's left end and middle), wrapping onto
// more lines when the width runs out.
// The first item is the last bar (last_bar_text), without a line sample.
std::vector<std::pair<double, double>> legend_layout(const ChartData& data, SvgSize size) {
  std::vector<std::pair<double, double>> out;
  double x = k_margin;
  double y = k_title_height;
  if (!data.bars.empty()) {
    out.emplace_back(x, y);
    x += static_cast<double>(last_bar_text(data).size()) * k_char_width + 18;
  }
  for (const auto& overlay : data.overlays) {
    const double width = 24 + static_cast<double>(overlay.label.size()) * k_char_width + 18;
    if (x > k_margin && x + width > size.width - k_margin) {
      x = k_margin;
      y += k_legend_line;
    }
    out.emplace_back(x, y);
    x += width;
  }
  return out;
}

Frame frame_of(const ChartData& data, SvgSize size, const std::vector<PriceTick>& ticks) {
  Frame frame;
  frame.scale = price_scale(data);
  std::size_t label_chars = 5; // short_volume
  if (!data.bars.empty()) {
    const auto& last = data.bars.back();
    const double prices[] = {last.open, last.high, last.low, last.close};
    label_chars = std::max(label_chars, 2 + fixed_decimals(prices)[3].size()); // "◀ 1524.00"
  }
  for (const auto& pane : data.panes) {
    for (const auto& tick : price_ticks(pane_scale(pane), 6)) {
      label_chars = std::max(label_chars, tick.label.size());
    }
  }
  for (const auto& tick : ticks) {
    label_chars = std::max(label_chars, tick.label.size());
  }
  frame.left = k_margin;
  frame.right = size.width - k_margin - 8 - static_cast<double>(label_chars) * k_char_width;
  const auto legend = legend_layout(data, size);
  const double top = legend.empty() ? k_title_height : legend.back().second + k_legend_line;
  // The volume pane and each indicator pane take an equal share, together at most 60%.
  const auto lower_panes = static_cast<double>(1 + data.panes.size());
  const double share = std::min(k_volume_share, 0.6 / lower_panes);
  const double panes = size.height - top - k_bottom - k_pane_gap * lower_panes;
  frame.price_top = top;
  frame.price_bottom = top + std::round(panes * (1 - share * lower_panes));
  frame.volume_top = frame.price_bottom + k_pane_gap;
  frame.volume_bottom = frame.volume_top + std::round(panes * share);
  for (const auto& pane : data.panes) {
    const double pane_top = frame.bottom() + k_pane_gap;
    frame.panes.push_back({pane_top, pane_top + std::round(panes * share), pane_scale(pane)});
  }
  frame.slot = (frame.right - frame.left - 2 * k_plot_padding)
               / static_cast<double>(std::max<std::size_t>(1, data.bars.size()));
  for (const auto& bar : data.bars) {
    frame.max_volume = std::max(frame.max_volume, bar.volume);
  }
  return frame;
}

void write_text(std::string& out,
                double x,
                double y,
                std::string_view text,
                const char* anchor = "start",
                const char* css_class = nullptr) {
  out += "<text" + attribute("x", x) + attribute("y", y) + " text-anchor=\"" + anchor + "\"";
  if (css_class != nullptr) {
    out += std::string(" class=\"") + css_class + "\"";
  }
  out += ">" + xml_escape(text) + "</text>\n";
}

void write_line(
    std::string& out, const char* css_class, double x1, double y1, double x2, double y2) {
  out += std::string("<line class=\"") + css_class + "\"" + attribute("x1", x1)
         + attribute("y1", y1) + attribute("x2", x2) + attribute("y2", y2) + "/>\n";
}

void write_rect(
    std::string& out, const std::string& css_class, double x, double y, double w, double h) {
  out += "<rect class=\"" + css_class + "\"" + attribute("x", x) + attribute("y", y)
         + attribute("width", w) + attribute("height", h) + "/>\n";
}

void write_heading(std::string& out, const ChartData& data, SvgSize size) {
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
         + attribute("width", size.width) + attribute("height", size.height) + " viewBox=\"0 0 "
         + std::to_string(size.width) + " " + std::to_string(size.height) + "\">\n";
  out += "<title>" + xml_escape(chart_title(data, ", ")) + "</title>\n" + k_style;
  out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  // Shrink the title's font (16px at most) to the picture's width.
  const auto title = chart_title(data, " · ");
  const auto chars = std::count_if(title.begin(), title.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  });
  const double font =
      std::min(16.0, (size.width - 2 * k_margin) / (static_cast<double>(chars) * k_title_em));
  out += "<text" + attribute("x", k_margin) + attribute("y", 24)
         + " class=\"title\" style=\"font-size:" + svg_number(font) + "px\">" + xml_escape(title)
         + "</text>\n";
}

void write_legend(std::string& out, const ChartData& data, SvgSize size) {
  const auto places = legend_layout(data, size);
  const auto& last = data.bars.back();
  out += "<text" + attribute("x", places[0].first) + attribute("y", places[0].second + 4)
         + " class=\"last " + (last.close >= last.open ? "up" : "down") + "\">"
         + xml_escape(last_bar_text(data)) + "</text>\n";
  for (std::size_t j = 0; j < data.overlays.size(); ++j) {
    const auto [x, y] = places[j + 1];
    out += std::string("<line class=\"overlay\" stroke=\"")
           + k_overlay_colors[j % k_overlay_colors.size()] + "\"" + attribute("x1", x)
           + attribute("y1", y) + attribute("x2", x + 18) + attribute("y2", y) + "/>\n";
    write_text(out, x + 24, y + 4, data.overlays[j].label);
  }
}

void write_price_axis(std::string& out, const Frame& frame, const std::vector<PriceTick>& ticks) {
  for (const auto& tick : ticks) {
    const double y = frame.y_of(tick.value);
    write_line(out, "grid", frame.left, y, frame.right, y);
    write_text(out, frame.right + 6, y + 4, tick.label);
  }
  write_text(out, frame.right + 6, frame.volume_top + 10, short_volume(frame.max_volume));
  write_text(out, frame.right + 6, frame.volume_bottom, "0");
  write_text(out, frame.left + 4, frame.volume_top + 12, "volume (shares)", "start", "pane");
}

// The last close: a dashed line across the price pane and its value on the axis, in the last
// candle's colour.
void write_last_close(std::string& out, const ChartData& data, const Frame& frame) {
  const auto& last = data.bars.back();
  const double prices[] = {last.open, last.high, last.low, last.close};
  const double y = frame.y_of(last.close);
  const std::string direction = last.close >= last.open ? "up" : "down";
  write_line(out, ("last-line " + direction).c_str(), frame.left, y, frame.right, y);
  out += "<text" + attribute("x", frame.right + 2) + attribute("y", y + 4) + " class=\"last "
         + direction + "\">" + xml_escape("◀ " + fixed_decimals(prices)[3]) + "</text>\n";
}

void write_date_axis(std::string& out, const ChartData& data, const Frame& frame, SvgSize size) {
  std::vector<domain::Date> dates;
  std::vector<double> positions;
  for (std::size_t i = 0; i < data.bars.size(); ++i) {
    dates.push_back(data.bars[i].trade_date);
    // Centred under its candle, but kept inside the picture.
    positions.push_back(std::max(frame.x_of(i) - k_date_label_width / 2, 2.0));
  }
  for (const auto i : date_ticks(dates, positions, k_date_label_width, 12, size.width)) {
    const double x = frame.x_of(i);
    write_line(out, "grid", x, frame.price_top, x, frame.price_bottom);
    write_line(out, "grid", x, frame.volume_top, x, frame.volume_bottom);
    for (const auto& pane : frame.panes) {
      write_line(out, "grid", x, pane.top, x, pane.bottom);
    }
    write_text(out, positions[i] + k_date_label_width / 2, frame.bottom() + 18, dates[i].iso(),
               "middle");
  }
}

void write_frames(std::string& out, const Frame& frame) {
  write_rect(out, "frame", frame.left, frame.price_top, frame.right - frame.left,
             frame.price_bottom - frame.price_top);
  write_rect(out, "frame", frame.left, frame.volume_top, frame.right - frame.left,
             frame.volume_bottom - frame.volume_top);
}

void write_candles(std::string& out, const ChartData& data, const Frame& frame) {
  const double body = std::max(frame.slot * k_body_share, std::min(1.0, frame.slot));
  out += "<g class=\"candles\">\n";
  for (std::size_t i = 0; i < data.bars.size(); ++i) {
    const auto& bar = data.bars[i];
    const bool up = bar.close >= bar.open;
    const double x = frame.x_of(i);
    const double top = frame.y_of(std::max(bar.open, bar.close));
    const double height = std::max(1.0, frame.y_of(std::min(bar.open, bar.close)) - top);
    out += std::string("<g class=\"candle ") + (up ? "up" : "down") + "\" data-date=\""
           + bar.trade_date.iso() + "\">";
    write_line(out, "wick", x, frame.y_of(bar.high), x, frame.y_of(bar.low));
    write_rect(out, "body", x - body / 2, top, body, height);
    out += "</g>\n";
  }
  out += "</g>\n";
}

void write_volume(std::string& out, const ChartData& data, const Frame& frame) {
  if (frame.max_volume <= 0) {
    return;
  }
  const double width = std::max(frame.slot * k_body_share, std::min(1.0, frame.slot));
  const double pane = frame.volume_bottom - frame.volume_top;
  out += "<g class=\"volumes\">\n";
  for (std::size_t i = 0; i < data.bars.size(); ++i) {
    const auto& bar = data.bars[i];
    const double height =
        pane * static_cast<double>(bar.volume) / static_cast<double>(frame.max_volume);
    write_rect(out, bar.close >= bar.open ? "volume up" : "volume down", frame.x_of(i) - width / 2,
               frame.volume_bottom - height, width, height);
  }
  out += "</g>\n";
}

// One polyline of `values` (one per bar, `y_of` placing them) per run of values without a gap.
template <typename YOf>
void write_polylines(std::string& out,
                     std::span<const double> values,
                     const Frame& frame,
                     const YOf& y_of,
                     const char* color) {
  std::string points;
  for (std::size_t i = 0; i <= values.size(); ++i) {
    if (i < values.size() && std::isfinite(values[i])) {
      points += (points.empty() ? "" : " ") + svg_number(frame.x_of(i)) + ","
                + svg_number(y_of(values[i]));
      continue;
    }
    if (!points.empty()) {
      out += std::string("<polyline class=\"overlay\" stroke=\"") + color + "\" points=\"" + points
             + "\"/>\n";
      points.clear();
    }
  }
}

void write_overlay(std::string& out,
                   const Overlay& overlay,
                   const Frame& frame,
                   const char* color) {
  out += "<g class=\"overlay\" data-label=\"" + xml_escape(overlay.label) + "\">\n";
  const auto y_of = [&frame](double value) { return frame.y_of(value); };
  write_polylines(out, overlay.values, frame, y_of, color);
  for (const auto& band : overlay.bands) {
    write_polylines(out, band, frame, y_of, color);
  }
  out += "</g>\n";
}

// An indicator pane: its frame, label and legend, value ticks, the zero line and histogram bars
// (MACD), and its lines.
void write_pane(std::string& out, const IndicatorPane& pane, const PaneFrame& place, const Frame& frame) {
  out += "<g class=\"pane\" data-label=\"" + xml_escape(pane.label) + "\">\n";
  const auto y_of = [&place](double value) { return place.y_of(value); };
  const int max_ticks = std::max(2, static_cast<int>((place.bottom - place.top) / 30));
  for (const auto& tick : price_ticks(place.scale, max_ticks)) {
    const double y = place.y_of(tick.value);
    write_line(out, "grid", frame.left, y, frame.right, y);
    write_text(out, frame.right + 6, y + 4, tick.label);
  }
  if (!pane.histogram.empty()) {
    const double zero = place.y_of(0);
    const double width = std::max(frame.slot * k_body_share, std::min(1.0, frame.slot));
    for (std::size_t i = 0; i < pane.histogram.size(); ++i) {
      const double value = pane.histogram[i];
      if (std::isfinite(value)) {
        const double y = place.y_of(value);
        write_rect(out, value >= 0 ? "volume up" : "volume down", frame.x_of(i) - width / 2,
                   std::min(y, zero), width, std::abs(y - zero));
      }
    }
    write_line(out, "zero", frame.left, zero, frame.right, zero);
  }
  double x = frame.left + 4;
  write_text(out, x, place.top + 12, pane.label, "start", "pane");
  x += static_cast<double>(pane.label.size()) * k_char_width + 8;
  for (std::size_t j = 0; j < pane.lines.size(); ++j) {
    const char* color = k_overlay_colors[j % k_overlay_colors.size()];
    write_polylines(out, pane.lines[j].values, frame, y_of, color);
    if (pane.lines.size() < 2) {
      continue; // one line is the label's own
    }
    out += "<text" + attribute("x", x) + attribute("y", place.top + 12) + " class=\"pane\" style=\"fill:"
           + color + "\">" + xml_escape(pane.lines[j].label) + "</text>\n";
    x += static_cast<double>(pane.lines[j].label.size()) * k_char_width + 10;
  }
  write_rect(out, "frame", frame.left, place.top, frame.right - frame.left, place.bottom - place.top);
  out += "</g>\n";
}

} // namespace

std::string render_svg(const ChartData& data, SvgSize size) {
  std::string out;
  write_heading(out, data, size);
  if (data.bars.empty()) {
    write_text(out, size.width / 2.0, size.height / 2.0, "no bars in this window", "middle",
               "note");
    return out + "</svg>\n";
  }
  const auto ticks = price_ticks(price_scale(data), (size.height - 100) / 50);
  const auto frame = frame_of(data, size, ticks);
  write_legend(out, data, size);
  write_price_axis(out, frame, ticks);
  write_date_axis(out, data, frame, size);
  write_volume(out, data, frame);
  write_candles(out, data, frame);
  for (std::size_t j = 0; j < data.overlays.size(); ++j) {
    write_overlay(out, data.overlays[j], frame, k_overlay_colors[j % k_overlay_colors.size()]);
  }
  for (std::size_t p = 0; p < data.panes.size(); ++p) {
    write_pane(out, data.panes[p], frame.panes[p], frame);
  }
  write_last_close(out, data, frame);
  write_frames(out, frame);
  return out + "</svg>\n";
}

std::string xml_escape(std::string_view text) {
  constexpr std::array<std::pair<char, const char*>, 5> k_entities{
      {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&apos;"}}};
  std::string out;
  for (const char c : text) {
    const auto* entity = std::find_if(k_entities.begin(), k_entities.end(),
                                      [c](const auto& pair) { return pair.first == c; });
    if (entity == k_entities.end()) {
      out += c;
    } else {
      out += entity->second;
    }
  }
  return out;
}

std::string svg_number(double value) {
  std::array<char, 64> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                 std::chars_format::fixed, 2)
                       .ptr;
  std::string text(buffer.data(), end);
  while (text.back() == '0') {
    text.pop_back();
  }
  if (text.back() == '.') {
    text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

} // namespace ashare::cli::chart
