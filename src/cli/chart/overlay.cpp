#include "cli/chart/overlay.hpp"

#include <charconv>
#include <limits>
#include <map>

namespace ashare::cli::chart {
namespace {

constexpr int k_max_window = 5000; // D4, as the indicator endpoints take it

Error bad_item(std::string_view item) {
  return make_error(ErrorCode::invalid_input,
                    "invalid --overlay \"" + std::string(item)
                        + "\": expected sma:N or ema:N with N from 1 to 5000, comma-separated "
                          "(e.g. sma:20,ema:50)");
}

Result<OverlaySpec> parse_item(std::string_view item) {
  const auto colon = item.find(':');
  const auto name = item.substr(0, colon);
  if (colon == std::string_view::npos || (name != "sma" && name != "ema")) {
    return bad_item(item);
  }
  const auto digits = item.substr(colon + 1);
  int window = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), window);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() || window < 1
      || window > k_max_window) {
    return bad_item(item);
  }
  return OverlaySpec{std::string(name), window};
}

} // namespace

Result<std::vector<OverlaySpec>> parse_overlays(std::string_view text) {
  std::vector<OverlaySpec> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    auto item =
        parse_item(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (!item) {
      return item.error();
    }
    out.push_back(*item);
    if (comma == std::string_view::npos) {
      return out;
    }
    start = comma + 1;
  }
}

std::string overlay_label(const OverlaySpec& spec) {
  return (spec.indicator == "sma" ? "SMA " : "EMA ") + std::to_string(spec.window);
}

std::vector<double> align_values(std::span<const domain::Bar> bars,
                                 std::span<const query::IndicatorValue> values) {
  std::map<std::int64_t, double> by_t;
  for (const auto& value : values) {
    by_t[value.timestamp] = value.value;
  }
  std::vector<double> out;
  for (const auto& bar : bars) {
    const auto it = by_t.find(bar.trade_date.t_ms());
    out.push_back(it == by_t.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
  }
  return out;
}

} // namespace ashare::cli::chart
