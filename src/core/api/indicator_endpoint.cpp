#include "core/api/indicator_endpoint.hpp"

#include "core/api/history_cache.hpp"
#include "core/api/request_checks.hpp"
#include "core/auth/plan.hpp"
#include "core/query/history.hpp"

namespace ashare::api {
namespace {

query::IndicatorInputs inputs_of(const std::vector<store::PriceSeries>& series) {
  query::IndicatorInputs out;
  for (const auto& one : series) {
    out.push_back(&one);
  }
  return out;
}

class IndicatorEndpointRequest final : public EndpointRequest {
public:
  explicit IndicatorEndpointRequest(IndicatorRequest request) : m_request(std::move(request)) {}

  const std::vector<domain::Symbol>& symbols() const override { return m_request.query.symbols; }

  std::string canonical_target() const override { return m_request.to_target(); }

  Status apply_plan(const Caller& caller, std::optional<domain::Date> as_of) override {
    if (auto status = check_indicator_plan(m_request, caller, as_of); !status) {
      return status;
    }
    m_request.query.limit = m_request.limit_or_default();
    return Ok{};
  }

  // Each symbol over its whole history (D9) from `view`.
  std::optional<Render>
  answer(const query::Catalog& catalog, StoreView& view, const std::string& request_id) override {
    const auto& query = m_request.query;
    std::vector<query::SymbolValues> items;
    items.reserve(query.symbols.size());
    for (const auto& symbol : query.symbols) {
      const auto* info = catalog.find(symbol.str());
      if (info == nullptr) {
        items.push_back(query::SymbolValues{symbol.str(), false, {}, false});
        continue;
      }
      const auto fields = query::input_fields(query);
      if (view.caches_histories()) {
        if (const auto history = view.history(*info); history.rendered) {
          query::IndicatorInputs inputs;
          for (const auto field : fields) {
            inputs.push_back(&history.rendered->history.price_series(field));
          }
          const auto lines = history.rendered->indicators.find_or_compute(
            IndicatorSeriesMemo::key_of(query),
            [&] { return query::indicator_lines(inputs, query, info->latest_factor); });
          items.push_back(query::select_values(info->symbol, inputs.front()->dates, *lines, query));
          continue;
        } else if (history.compact) {
          const auto bars = history.compact->decode_all();
          std::vector<store::PriceSeries> series;
          for (const auto field : fields) {
            series.push_back(query::price_series_of(bars, field));
          }
          items.push_back(
            query::values_from_series(info->symbol, inputs_of(series), query, info->latest_factor));
          continue;
        }
        if (!view.may_wait()) {
          return std::nullopt; // to a worker thread, which may read the store
        }
      }
      // A one-shot command, or a symbol's first miss: read just its series.
      std::vector<store::PriceSeries> series;
      for (const auto field : fields) {
        auto one = view.load_price_series(*info, field);
        if (!one) {
          return std::nullopt;
        }
        series.push_back(std::move(*one));
      }
      items.push_back(
        query::values_from_series(info->symbol, inputs_of(series), query, info->latest_factor));
    }
    return Render([response = make_indicator_response(m_request, request_id, std::move(items))](
                      std::optional<std::int64_t>) { return indicators_to_json(response); });
  }

private:
  IndicatorRequest m_request;
};

} // namespace

template <query::Indicator indicator>
Result<std::unique_ptr<EndpointRequest>> parse_indicator_endpoint(std::span<const std::string>,
                                                                  const QueryParams& params) {
  auto request = parse_indicator_request(indicator, params);
  if (!request) {
    return request.error();
  }
  return std::unique_ptr<EndpointRequest>(
      std::make_unique<IndicatorEndpointRequest>(std::move(*request)));
}

template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::ema>(std::span<const std::string>, const QueryParams&);
template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::rsi>(std::span<const std::string>, const QueryParams&);
template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::sma>(std::span<const std::string>, const QueryParams&);
template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::macd>(std::span<const std::string>, const QueryParams&);
template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::bbands>(std::span<const std::string>, const QueryParams&);
template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::atr>(std::span<const std::string>, const QueryParams&);
template Result<std::unique_ptr<EndpointRequest>>
parse_indicator_endpoint<query::Indicator::kdj>(std::span<const std::string>, const QueryParams&);

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
  const auto lower_bounds = request.lower_bounds();
  for (const auto& [name, bound] : lower_bounds) {
    if (bound < earliest->t_ms()) {
      return make_error(ErrorCode::plan_limit, name + " reaches earlier than " + earliest->iso()
                                                   + ", the earliest date reachable"
                                                   + on_plan(caller.plan) + " (as_of "
                                                   + as_of->iso() + ")");
    }
  }
  if (lower_bounds.empty()) {
    request.query.filter.clip_gte = earliest->t_ms();
  }
  return Ok{};
}

IndicatorResponse make_indicator_response(const IndicatorRequest& request,
                                          const std::string& request_id,
                                          std::vector<query::SymbolValues> items) {
  IndicatorResponse response;
  response.request_id = request_id;
  response.single = request.query.symbols.size() == 1;
  response.expand_underlying = request.expand_underlying;
  response.indicator = request.query.indicator;
  response.series_type = reads_series_type(request.query.indicator)
                           ? std::string(store::price_field_name(request.query.series_type))
                           : std::string();
  response.adjusted = request.query.adjusted;
  response.items = std::move(items);
  for (const auto& item : response.items) {
    response.next_urls.push_back(
      item.has_more ? std::optional(next_url(request, item.symbol, item.values.back().timestamp))
                    : std::nullopt);
  }
  return response;
}

} // namespace ashare::api
