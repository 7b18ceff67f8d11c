#include "core/api/indicator_endpoint.hpp"

#include "core/api/json.hpp"
#include "core/api/params.hpp"
#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"

#include <algorithm>
#include <charconv>

namespace ashare::api {
namespace {

using query::Indicator;

Result<store::PriceField> to_price_field(const std::string& name) {
  for (const auto field : {store::PriceField::open, store::PriceField::high,
                           store::PriceField::low, store::PriceField::close}) {
    if (store::price_field_name(field) == name) {
      return field;
    }
  }
  return make_error(ErrorCode::internal, "unknown series_type " + name);
}


// Run `query`: one item per symbol, in order, each over its whole history (D9) from `view`;
// nullopt when a history is not in memory and `view` may not load it.
std::optional<std::vector<query::SymbolValues>>
cached_indicator_items(const query::Catalog& catalog,
                       const query::IndicatorQuery& query,
                       StoreView& view) {
  std::vector<query::SymbolValues> items;
  items.reserve(query.symbols.size());
  for (const auto& symbol : query.symbols) {
    const auto* info = catalog.find(symbol.str());
    if (info == nullptr) {
      items.push_back(query::SymbolValues{symbol.str(), false, {}});
      continue;
    }
    const auto history = view.history(*info);
    if (!history) {
      return std::nullopt;
    }
    items.push_back(query::values_from_series(info->symbol,
                                              price_series(*history, query.series_type), query,
                                              info->latest_factor));
  }
  return items;
}

} // namespace

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

  struct TimeParam {
    const char* name;
    std::optional<std::int64_t> query::TimeFilter::*bound;
    bool lower;
  };
  constexpr TimeParam k_time_params[] = {
    {"timestamp", &query::TimeFilter::day_t, true},
    {"timestamp.gte", &query::TimeFilter::gte, true},
    {"timestamp.gt", &query::TimeFilter::gt, true},
    {"timestamp.lte", &query::TimeFilter::lte, false},
    {"timestamp.lt", &query::TimeFilter::lt, false},
  };
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
    const std::int64_t bound = param.bound == &query::TimeFilter::day_t
                                 ? domain::Date::containing_instant(*t).t_ms()
                                 : *t;
    query.filter.*param.bound = bound;
    if (param.lower) {
      request.lower_bounds.emplace_back(param.name, bound);
    }
  }
  return request;
}

Status check_indicator_plan(IndicatorRequest& request,
                            const Caller& caller,
                            std::optional<domain::Date> as_of) {
  if (auto status = check_plan_maxima(caller.plan, request.query.symbols.size(), request.limit);
      !status) {
    return status;
  }
  const auto earliest = as_of ? auth::earliest_reachable(caller.plan, *as_of) : std::nullopt;
  if (!earliest) {
    return Ok{};
  }
  // D6: an explicit early lower bound is refused; without one, values are clipped silently.
  for (const auto& [name, bound] : request.lower_bounds) {
    if (bound < earliest->t_ms()) {
      return make_error(ErrorCode::plan_limit,
                        name + " reaches earlier than " + earliest->iso()
                          + ", the earliest date reachable" + on_plan(caller.plan) + " (as_of "
                          + as_of->iso() + ")");
    }
  }
  if (request.lower_bounds.empty()) {
    request.query.filter.clip_gte = earliest->t_ms();
  }
  return Ok{};
}

Result<Prepared> prepare_indicator(Indicator indicator,
                                   const QueryParams& params,
                                   const Caller& caller,
                                   StoreView& view,
                                   const std::string& request_id) {
  auto parsed = parse_indicator_request(indicator, params);
  if (!parsed) {
    return parsed.error();
  }
  IndicatorRequest request = std::move(*parsed);

  const auto catalog = view.catalog();
  if (!catalog) {
    return Prepared::defer();
  }
  if (auto status = check_single_symbol_known(request.query.symbols, *catalog); !status) {
    return status.error();
  }
  if (auto status = check_indicator_plan(request, caller, catalog->dataset.as_of); !status) {
    return status.error();
  }
  request.query.limit = request.limit.value_or(10);

  auto items = cached_indicator_items(*catalog, request.query, view);
  if (!items) {
    return Prepared::defer();
  }
  IndicatorResponse response;
  response.request_id = request_id;
  response.single = request.query.symbols.size() == 1;
  response.expand_underlying = request.expand_underlying;
  response.series_type = std::string(store::price_field_name(request.query.series_type));
  response.adjusted = request.query.adjusted;
  response.items = std::move(*items);
  const auto cost = std::count_if(response.items.begin(), response.items.end(),
                                  [](const auto& item) { return item.known; });
  return Prepared{cost, [response = std::move(response)](std::optional<std::int64_t>) {
                    return indicators_to_json(response);
                  }};
}

} // namespace ashare::api
