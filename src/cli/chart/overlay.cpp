#include "cli/chart/overlay.hpp"

#include "core/api/indicator_request.hpp"
#include "core/domain/number.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>

namespace ashare::cli::chart {
namespace {

using query::Indicator;

// What an overlay item may name, and the API's names of its parameters in the item's order.
struct Kind {
  std::string_view name;
  Indicator indicator;
  std::vector<const char*> params;
  std::size_t required = 0; // leading parameters that must be given
};

const std::array<Kind, 7> k_kinds{{
    {"sma", Indicator::sma, {"window"}, 1},
    {"ema", Indicator::ema, {"window"}, 1},
    {"bbands", Indicator::bbands, {"window", "k"}},
    {"rsi", Indicator::rsi, {"window"}},
    {"atr", Indicator::atr, {"window"}},
    {"macd", Indicator::macd, {"fast", "slow", "signal"}},
    {"kdj", Indicator::kdj, {"n", "m1", "m2"}},
}};

constexpr std::string_view k_expected =
    "expected sma:N, ema:N, bbands[:N[:K]], rsi[:N], atr[:N], macd[:FAST[:SLOW[:SIGNAL]]] or "
    "kdj[:N[:M1[:M2]]], comma-separated (e.g. sma:20,bbands,macd)";

Error bad_item(std::string_view item, std::string_view why) {
  return make_error(ErrorCode::invalid_input, "invalid --overlay \"" + std::string(item)
                                                + "\": " + std::string(why));
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(separator, start);
    out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return out;
    }
    start = end + 1;
  }
}

Result<OverlaySpec> parse_item(std::string_view item) {
  const auto parts = split(item, ':');
  const auto* kind = std::find_if(k_kinds.begin(), k_kinds.end(),
                                  [&](const Kind& k) { return k.name == parts.front(); });
  if (kind == k_kinds.end() || parts.size() - 1 < kind->required
      || parts.size() - 1 > kind->params.size()) {
    return bad_item(item, k_expected);
  }
  // The API's own checks (D13), so that a chart takes exactly what the endpoint takes.
  api::QueryParams params;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    params.set(kind->params[i - 1], std::string(parts[i]));
  }
  OverlaySpec spec;
  spec.query.indicator = kind->indicator;
  if (auto status = api::parse_indicator_params(kind->indicator, params, spec.query); !status) {
    return bad_item(item, status.error().message);
  }
  return spec;
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (auto& c : out) {
    c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  }
  return out;
}

} // namespace

Result<std::vector<OverlaySpec>> parse_overlays(std::string_view text) {
  std::vector<OverlaySpec> out;
  for (const auto item : split(text, ',')) {
    auto spec = parse_item(item);
    if (!spec) {
      return spec.error();
    }
    out.push_back(*spec);
  }
  return out;
}

bool has_own_pane(const OverlaySpec& spec) {
  switch (spec.query.indicator) {
  case Indicator::sma:
  case Indicator::ema:
  case Indicator::bbands:
    return false;
  case Indicator::rsi:
  case Indicator::atr:
  case Indicator::macd:
  case Indicator::kdj:
    break;
  }
  return true;
}

std::string overlay_label(const OverlaySpec& spec) {
  const auto& q = spec.query;
  const auto periods = [](std::initializer_list<int> values) {
    std::string out;
    for (const int value : values) {
      out += " " + std::to_string(value);
    }
    return out;
  };
  switch (q.indicator) {
  case Indicator::macd:
    return "MACD" + periods({q.fast, q.slow, q.signal});
  case Indicator::kdj:
    return "KDJ" + periods({q.n, q.m1, q.m2});
  case Indicator::bbands:
    return "BOLL" + periods({q.window}) + " " + domain::format_number(q.k);
  case Indicator::sma:
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::atr:
    break;
  }
  return upper(api::indicator_name(q.indicator)) + periods({q.window});
}

std::vector<std::string> line_labels(const OverlaySpec& spec) {
  switch (spec.query.indicator) {
  case Indicator::macd:
    return {"DIF", "DEA"};
  case Indicator::kdj:
    return {"K", "D", "J"};
  case Indicator::bbands:
    return {"MID", "UPPER", "LOWER"};
  case Indicator::sma:
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::atr:
    break;
  }
  return {overlay_label(spec)};
}

std::vector<double> align_values(std::span<const domain::Bar> bars,
                                 std::span<const query::IndicatorValue> values,
                                 double query::IndicatorValue::*pick) {
  std::map<std::int64_t, double> by_t;
  for (const auto& value : values) {
    by_t[value.timestamp] = value.*pick;
  }
  std::vector<double> out;
  for (const auto& bar : bars) {
    const auto it = by_t.find(bar.trade_date.t_ms());
    out.push_back(it == by_t.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
  }
  return out;
}

} // namespace ashare::cli::chart
