#include "core/api/indicator_request.hpp"

#include "core/api/params.hpp"
#include "core/domain/symbol.hpp"
#include "core/store/bar_store.hpp"

#include <algorithm>
#include <charconv>

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

} // namespace

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
  if (query.window != default_window(query.indicator)) {
    params.set("window", std::to_string(query.window));
  }
  if (query.series_type != store::PriceField::close) {
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

std::string
next_url(const IndicatorRequest& request, const std::string& symbol, std::int64_t last_t) {
  IndicatorRequest next = request;
  const auto it = std::find_if(request.query.symbols.begin(), request.query.symbols.end(),
                               [&symbol](const domain::Symbol& s) { return s.str() == symbol; });
  if (it != request.query.symbols.end()) {
    next.query.symbols = {*it};
  }
  auto& filter = next.query.filter;
  (request.query.order == domain::SortOrder::asc ? filter.gt : filter.lt) = last_t;
  return next.to_target();
}

Result<IndicatorRequest> parse_indicator_form(const IndicatorForm& form) {
  QueryParams params;
  params.set("symbol", form.symbols);
  if (form.window) {
    params.set("window", std::to_string(*form.window));
  }
  params.set("series_type", form.series_type);
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
  return indicator == Indicator::rsi ? 14 : 50;
}

std::string_view indicator_name(Indicator indicator) {
  switch (indicator) {
  case Indicator::ema:
    return "ema";
  case Indicator::rsi:
    return "rsi";
  case Indicator::sma:
    return "sma";
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

  auto window = parse_int_param("window", params.find("window"), 1, k_max_window);
  if (!window) {
    return window.error();
  }
  query.window = static_cast<int>(window->value_or(default_window(indicator)));

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
