#include "core/api/indicator_request.hpp"

#include "core/api/params.hpp"
#include "core/domain/number.hpp"
#include "core/domain/symbol.hpp"
#include "core/store/bar_store.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <tuple>

namespace ashare::api {
namespace {

using query::Indicator;
using query::TimeFilter;

// The time parameters in the documented order; `lower` ones are checked against the plan (D6).
struct TimeParam {
  const char* name;
  std::optional<std::int64_t> TimeFilter::*bound;
  bool lower;
};

constexpr TimeParam k_time_params[] = {
    {"timestamp", &TimeFilter::day_t, true},  {"timestamp.gte", &TimeFilter::gte, true},
    {"timestamp.gt", &TimeFilter::gt, true},  {"timestamp.lte", &TimeFilter::lte, false},
    {"timestamp.lt", &TimeFilter::lt, false},
};

constexpr store::PriceField k_price_fields[] = {store::PriceField::open, store::PriceField::high,
                                                store::PriceField::low, store::PriceField::close};

Result<store::PriceField> to_price_field(const std::string& name) {
  for (const auto field : k_price_fields) {
    if (store::price_field_name(field) == name) {
      return field;
    }
  }
  return make_error(ErrorCode::internal, "unknown series_type " + name);
}

// Return `t` as a time parameter: the date when it is a day's t (easier to read in logs), else
// Unix milliseconds; parse_time_param() reads either back to `t`.
std::string time_param_text(std::int64_t t) {
  const auto day = domain::Date::containing_instant(t);
  const auto text = day.iso();
  const auto parsed = domain::parse_iso_date(text, "timestamp");
  if (day.t_ms() == t && parsed && *parsed == day) {
    return text;
  }
  return std::to_string(t);
}

// Parse integer parameter `name` (`min` to k_max_window, `fallback` when absent) into `out`.
Status parse_period(const QueryParams& params, const char* name, std::int64_t min, int fallback,
                    int& out) {
  auto value = parse_int_param(name, params.find(name), min, k_max_window);
  if (!value) {
    return value.error();
  }
  out = static_cast<int>(value->value_or(fallback));
  return Ok{};
}

} // namespace

Status parse_indicator_params(Indicator indicator,
                              const QueryParams& params,
                              query::IndicatorQuery& query) {
  switch (indicator) {
  case Indicator::macd: {
    for (const auto& [name, min, fallback, out] :
         {std::tuple{"fast", 2, 12, &query.fast}, std::tuple{"slow", 2, 26, &query.slow},
          std::tuple{"signal", 1, 9, &query.signal}}) {
      if (auto status = parse_period(params, name, min, fallback, *out); !status) {
        return status;
      }
      if (out == &query.slow && query.fast >= query.slow) {
        return make_error(ErrorCode::invalid_parameter,
                          "invalid fast \"" + std::to_string(query.fast) + "\": expected less than slow ("
                            + std::to_string(query.slow) + ")");
      }
    }
    return Ok{};
  }
  case Indicator::bbands: {
    if (auto status = parse_period(params, "window", 2, default_window(indicator), query.window);
        !status) {
      return status;
    }
    auto k = parse_decimal_param("k", params.find("k"), 10);
    if (!k) {
      return k.error();
    }
    query.k = k->value_or(2);
    return Ok{};
  }
  case Indicator::kdj:
    for (const auto& [name, fallback, out] :
         {std::tuple{"n", 9, &query.n}, std::tuple{"m1", 3, &query.m1},
          std::tuple{"m2", 3, &query.m2}}) {
      if (auto status = parse_period(params, name, 1, fallback, *out); !status) {
        return status;
      }
    }
    return Ok{};
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::sma:
  case Indicator::atr:
    break;
  }
  return parse_period(params, "window", 1, default_window(indicator), query.window);
}

bool reads_series_type(Indicator indicator) {
  return indicator != Indicator::atr && indicator != Indicator::kdj;
}

std::vector<std::pair<std::string, std::int64_t>> IndicatorRequest::lower_bounds() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const auto& param : k_time_params) {
    if (param.lower && query.filter.*param.bound) {
      out.emplace_back(param.name, *(query.filter.*param.bound));
    }
  }
  return out;
}

QueryParams IndicatorRequest::to_params() const {
  QueryParams params;
  params.set("symbol", domain::join_symbols(query.symbols));
  if (!query.adjusted) {
    params.set("adjusted", "false");
  }
  query::IndicatorQuery defaults; // the indicator's own parameters when none is given
  [[maybe_unused]] const auto parsed =
    parse_indicator_params(query.indicator, QueryParams{}, defaults);
  assert(parsed);
  const auto set_period = [&params](const char* name, int value, int fallback) {
    if (value != fallback) {
      params.set(name, std::to_string(value));
    }
  };
  switch (query.indicator) {
  case Indicator::macd:
    set_period("fast", query.fast, defaults.fast);
    set_period("slow", query.slow, defaults.slow);
    set_period("signal", query.signal, defaults.signal);
    break;
  case Indicator::kdj:
    set_period("n", query.n, defaults.n);
    set_period("m1", query.m1, defaults.m1);
    set_period("m2", query.m2, defaults.m2);
    break;
  case Indicator::bbands:
    set_period("window", query.window, defaults.window);
    if (query.k != defaults.k) {
      params.set("k", domain::format_number(query.k));
    }
    break;
  case Indicator::ema:
  case Indicator::rsi:
  case Indicator::sma:
  case Indicator::atr:
    set_period("window", query.window, defaults.window);
    break;
  }
  if (reads_series_type(query.indicator) && query.series_type != store::PriceField::close) {
    params.set("series_type", store::price_field_name(query.series_type));
  }
  if (query.convention == query::Convention::tdx) {
    params.set("convention", "tdx");
  }
  if (expand_underlying) {
    params.set("expand_underlying", "true");
  }
  if (query.order == domain::SortOrder::asc) {
    params.set("order", "asc");
  }
  if (limit) {
    params.set("limit", std::to_string(*limit));
  }
  for (const auto& param : k_time_params) {
    if (const auto bound = query.filter.*param.bound) {
      params.set(param.name, time_param_text(*bound));
    }
  }
  return params;
}

std::string IndicatorRequest::to_target() const {
  return indicator_path(query.indicator) + "?" + to_params().encode();
}

Result<IndicatorRequest> parse_indicator_form(const IndicatorForm& form) {
  QueryParams params;
  params.set("symbol", form.symbols);
  const std::pair<const char*, const std::optional<std::int64_t>*> periods[] = {
      {"window", &form.window}, {"fast", &form.fast}, {"slow", &form.slow},
      {"signal", &form.signal}, {"n", &form.n},       {"m1", &form.m1},
      {"m2", &form.m2}};
  for (const auto& [name, value] : periods) {
    if (*value) {
      params.set(name, std::to_string(**value));
    }
  }
  if (form.k) {
    params.set("k", *form.k);
  }
  if (reads_series_type(form.indicator)) {
    params.set("series_type", form.series_type);
  }
  if (form.convention) {
    params.set("convention", *form.convention);
  }
  if (!form.adjusted) {
    params.set("adjusted", "false");
  }
  params.set("order", form.order);
  if (form.limit) {
    params.set("limit", std::to_string(*form.limit));
  }
  const std::pair<const char*, const std::optional<std::string>*> times[] = {
      {"timestamp", &form.at}, {"timestamp.gte", &form.from}, {"timestamp.lte", &form.to}};
  for (const auto& [name, text] : times) {
    if (*text) {
      params.set(name, **text);
    }
  }
  if (form.expand_underlying) {
    params.set("expand_underlying", "true");
  }
  return parse_indicator_request(form.indicator, params);
}

int default_window(Indicator indicator) {
  switch (indicator) {
  case Indicator::rsi:
  case Indicator::atr:
    return 14;
  case Indicator::bbands:
    return 20;
  case Indicator::ema:
  case Indicator::sma:
  case Indicator::macd:
  case Indicator::kdj:
    break;
  }
  return 50;
}

std::string_view indicator_name(Indicator indicator) {
  switch (indicator) {
  case Indicator::ema:
    return "ema";
  case Indicator::rsi:
    return "rsi";
  case Indicator::sma:
    return "sma";
  case Indicator::macd:
    return "macd";
  case Indicator::bbands:
    return "bbands";
  case Indicator::atr:
    return "atr";
  case Indicator::kdj:
    return "kdj";
  }
  return "";
}

std::string indicator_path(Indicator indicator) {
  return "/v1/indicators/" + std::string(indicator_name(indicator));
}

Result<std::int64_t> parse_time_param(std::string_view name, std::string_view text) {
  if (auto date = domain::parse_iso_date(text, name)) {
    return date->t_ms();
  }
  // Instants within years 0000..9999 (D2 dates are four-digit years), so that no later arithmetic
  // on them can overflow.
  constexpr std::int64_t k_max_abs_ms = 253'402'300'800'000;
  const std::string_view digits = !text.empty() && text.front() == '-' ? text.substr(1) : text;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (digits.empty() || digits.find_first_not_of("0123456789") != digits.npos
      || error != std::errc{} || end != text.data() + text.size() || value > k_max_abs_ms
      || value < -k_max_abs_ms) {
    return make_error(ErrorCode::invalid_parameter,
                      "invalid " + std::string(name) + " \"" + std::string(text)
                          + "\": expected a date YYYY-MM-DD or Unix milliseconds");
  }
  return value;
}

Result<IndicatorRequest> parse_indicator_request(Indicator indicator, const QueryParams& params) {
  IndicatorRequest request;
  auto& query = request.query;
  query.indicator = indicator;

  auto symbols = domain::parse_symbol_list(params.find("symbol").value_or(""));
  if (!symbols) {
    return symbols.error();
  }
  query.symbols = std::move(*symbols);

  // D9: every indicator endpoint accepts `timespan`, and only `day`.
  if (auto timespan = parse_enum_param("timespan", params.find("timespan"), {"day"}, "day");
      !timespan) {
    return timespan.error();
  }
  auto adjusted = parse_bool_param("adjusted", params.find("adjusted"), true);
  if (!adjusted) {
    return adjusted.error();
  }
  query.adjusted = *adjusted;

  if (auto status = parse_indicator_params(indicator, params, query); !status) {
    return status.error();
  }

  if (reads_series_type(indicator)) {
    auto series = parse_enum_param("series_type", params.find("series_type"),
                                   {"open", "high", "low", "close"}, "close");
    if (!series) {
      return series.error();
    }
    auto field = to_price_field(*series);
    if (!field) {
      return field.error();
    }
    query.series_type = *field;
  }

  auto convention =
    parse_enum_param("convention", params.find("convention"), {"talib", "tdx"}, "talib");
  if (!convention) {
    return convention.error();
  }
  query.convention = *convention == "tdx" ? query::Convention::tdx : query::Convention::talib;

  auto expand = parse_bool_param("expand_underlying", params.find("expand_underlying"), false);
  if (!expand) {
    return expand.error();
  }
  request.expand_underlying = *expand;

  auto order = parse_enum_param("order", params.find("order"), {"asc", "desc"}, "desc");
  if (!order) {
    return order.error();
  }
  query.order = *order == "asc" ? domain::SortOrder::asc : domain::SortOrder::desc;

  auto limit = parse_int_param("limit", params.find("limit"), 1, k_max_limit);
  if (!limit) {
    return limit.error();
  }
  request.limit = *limit;

  for (const auto& param : k_time_params) {
    const auto text = params.find(param.name);
    if (!text) {
      continue;
    }
    auto t = parse_time_param(param.name, *text);
    if (!t) {
      return t.error();
    }
    // D9: `timestamp` selects the trading day (UTC+8) that contains the instant.
    query.filter.*param.bound =
        param.bound == &TimeFilter::day_t ? domain::Date::containing_instant(*t).t_ms() : *t;
  }
  return request;
}

} // namespace ashare::api
