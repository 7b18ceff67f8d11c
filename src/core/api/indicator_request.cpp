#include "core/api/indicator_request.hpp"

#include "core/api/params.hpp"
#include "core/domain/number.hpp"
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

using query::IndicatorQuery;

constexpr int k_max_period = static_cast<int>(k_max_window);

// The integer parameters of each indicator (D9, D13), grouped by indicator, each group in the
// order the API checks them.
constexpr PeriodParam k_period_params[] = {
    {Indicator::ema, "window", 1, k_max_period, 50, &IndicatorQuery::window, "Window length"},
    {Indicator::rsi, "window", 1, k_max_period, 14, &IndicatorQuery::window, "Window length"},
    {Indicator::sma, "window", 1, k_max_period, 50, &IndicatorQuery::window, "Window length"},
    // D13: the server checks fast < slow, with the message that names `fast`.
    {Indicator::macd, "fast", 2, k_max_period, 12, &IndicatorQuery::fast,
     "Fast EMA period, less than --slow"},
    {Indicator::macd, "slow", 2, k_max_period, 26, &IndicatorQuery::slow, "Slow EMA period"},
    {Indicator::macd, "signal", 1, k_max_period, 9, &IndicatorQuery::signal,
     "Signal line's EMA period"},
    {Indicator::bbands, "window", 2, k_max_period, 20, &IndicatorQuery::window, "Window length"},
    {Indicator::atr, "window", 1, k_max_period, 14, &IndicatorQuery::window, "Window length"},
    {Indicator::kdj, "n", 1, k_max_period, 9, &IndicatorQuery::n,
     "Bars of the highest high and lowest low (RSV)"},
    {Indicator::kdj, "m1", 1, k_max_period, 3, &IndicatorQuery::m1, "Smoothing of K"},
    {Indicator::kdj, "m2", 1, k_max_period, 3, &IndicatorQuery::m2, "Smoothing of D"},
};

// Return the error of MACD's `query` when its fast period is not less than its slow (D13).
std::optional<Error> fast_not_below_slow(const IndicatorQuery& query) {
  if (query.fast < query.slow) {
    return std::nullopt;
  }
  return make_error(ErrorCode::invalid_parameter,
                    "invalid fast \"" + std::to_string(query.fast) + "\": expected less than slow ("
                      + std::to_string(query.slow) + ")");
}

// Parse BBANDS's `k` from `params` into `query` (D13).
Status parse_bbands_k(const QueryParams& params, IndicatorQuery& query) {
  auto k = parse_decimal_param("k", params.find("k"), k_max_bbands_k);
  if (!k) {
    return k.error();
  }
  query.k = k->value_or(k_default_bbands_k);
  return Ok{};
}

// Set in `params` the parameters of the indicator of `query` itself that differ from their
// defaults, in the order the API checks them.
void set_indicator_params(const IndicatorQuery& query, QueryParams& params) {
  for (const auto& param : period_params(query.indicator)) {
    if (const int value = query.*param.member; value != param.fallback) {
      params.set(param.name, std::to_string(value));
    }
  }
  if (query.indicator == Indicator::bbands && query.k != k_default_bbands_k) {
    params.set("k", domain::format_number(query.k));
  }
}

} // namespace

std::span<const PeriodParam> period_params(Indicator indicator) {
  const auto of_indicator = [indicator](const PeriodParam& param) {
    return param.indicator == indicator;
  };
  const auto first = std::ranges::find_if(k_period_params, of_indicator);
  const auto last =
    std::ranges::find_if_not(first, std::ranges::end(k_period_params), of_indicator);
  return {first, last};
}

Status parse_indicator_params(Indicator indicator,
                              const QueryParams& params,
                              query::IndicatorQuery& query) {
  for (const auto& param : period_params(indicator)) {
    auto value = parse_int_param(param.name, params.find(param.name), param.min, param.max);
    if (!value) {
      return value.error();
    }
    query.*param.member = static_cast<int>(value->value_or(param.fallback));
    if (param.member == &IndicatorQuery::slow) {
      if (auto error = fast_not_below_slow(query)) {
        return *error;
      }
    }
  }
  if (indicator == Indicator::bbands) {
    return parse_bbands_k(params, query);
  }
  return Ok{};
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
  set_indicator_params(query, params);
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

namespace {

// The checks of parse_indicator_request(), each reading its parameters of `params` into
// `request` (whose query names its indicator).

Status read_symbols(const QueryParams& params, IndicatorRequest& request) {
  auto symbols = domain::parse_symbol_list(params.find("symbol").value_or(""));
  if (!symbols) {
    return symbols.error();
  }
  request.query.symbols = std::move(*symbols);
  return Ok{};
}

Status read_timespan(const QueryParams& params, IndicatorRequest&) {
  // D9: every indicator endpoint accepts `timespan`, and only `day`.
  if (auto timespan = parse_enum_param("timespan", params.find("timespan"), {"day"}, "day");
      !timespan) {
    return timespan.error();
  }
  return Ok{};
}

Status read_adjusted(const QueryParams& params, IndicatorRequest& request) {
  auto adjusted = parse_bool_param("adjusted", params.find("adjusted"), true);
  if (!adjusted) {
    return adjusted.error();
  }
  request.query.adjusted = *adjusted;
  return Ok{};
}

Status read_own_params(const QueryParams& params, IndicatorRequest& request) {
  return parse_indicator_params(request.query.indicator, params, request.query);
}

Status read_series_type(const QueryParams& params, IndicatorRequest& request) {
  if (!reads_series_type(request.query.indicator)) {
    return Ok{};
  }
  auto series = parse_enum_param("series_type", params.find("series_type"),
                                 {"open", "high", "low", "close"}, "close");
  if (!series) {
    return series.error();
  }
  auto field = to_price_field(*series);
  if (!field) {
    return field.error();
  }
  request.query.series_type = *field;
  return Ok{};
}

Status read_convention(const QueryParams& params, IndicatorRequest& request) {
  auto convention =
    parse_enum_param("convention", params.find("convention"), {"talib", "tdx"}, "talib");
  if (!convention) {
    return convention.error();
  }
  request.query.convention =
    *convention == "tdx" ? query::Convention::tdx : query::Convention::talib;
  return Ok{};
}

Status read_expand_underlying(const QueryParams& params, IndicatorRequest& request) {
  auto expand = parse_bool_param("expand_underlying", params.find("expand_underlying"), false);
  if (!expand) {
    return expand.error();
  }
  request.expand_underlying = *expand;
  return Ok{};
}

Status read_order(const QueryParams& params, IndicatorRequest& request) {
  auto order = parse_enum_param("order", params.find("order"), {"asc", "desc"}, "desc");
  if (!order) {
    return order.error();
  }
  request.query.order = *order == "asc" ? domain::SortOrder::asc : domain::SortOrder::desc;
  return Ok{};
}

Status read_limit(const QueryParams& params, IndicatorRequest& request) {
  auto limit = parse_int_param("limit", params.find("limit"), 1, k_max_limit);
  if (!limit) {
    return limit.error();
  }
  request.limit = *limit;
  return Ok{};
}

Status read_times(const QueryParams& params, IndicatorRequest& request) {
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
    request.query.filter.*param.bound =
        param.bound == &TimeFilter::day_t ? domain::Date::containing_instant(*t).t_ms() : *t;
  }
  return Ok{};
}

// The checks in the documented order (parse_indicator_request's contract): the first that fails
// is the answer.
using RequestCheck = Status (*)(const QueryParams& params, IndicatorRequest& request);
constexpr RequestCheck k_request_checks[] = {
    read_symbols,    read_timespan, read_adjusted, read_own_params, read_series_type,
    read_convention, read_expand_underlying, read_order, read_limit, read_times,
};

} // namespace

Result<IndicatorRequest> parse_indicator_request(Indicator indicator, const QueryParams& params) {
  IndicatorRequest request;
  request.query.indicator = indicator;
  for (const auto check : k_request_checks) {
    if (auto status = check(params, request); !status) {
      return status.error();
    }
  }
  return request;
}

} // namespace ashare::api
