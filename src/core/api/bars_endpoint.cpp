#include "core/api/bars_endpoint.hpp"

#include "core/api/history_cache.hpp"
#include "core/api/request_checks.hpp"
#include "core/auth/api_key.hpp"
#include "core/auth/plan.hpp"

#include <cassert>

namespace ashare::api {
namespace {

using domain::Date;

class BarsEndpointRequest final : public EndpointRequest {
public:
  explicit BarsEndpointRequest(BarsRequest request) : m_request(std::move(request)) {}

  const std::vector<domain::Symbol>& symbols() const override { return m_request.query.symbols; }

  std::string canonical_target() const override { return m_request.to_target(); }

  Status apply_plan(const Caller& caller, std::optional<Date> as_of) override {
    if (auto status = check_bars_plan(m_request, caller, as_of); !status) {
      return status;
    }
    // D4 / D6: without `limit`, the plan's maximum.
    m_request.query.limit = m_request.limit_under(caller.plan);
    return Ok{};
  }

  // From the histories of `view`, with each bar's JSON already written.
  std::optional<Render>
  answer(const query::Catalog& catalog, StoreView& view, const std::string& request_id) override {
    auto response = answer_typed(catalog, view, request_id);
    if (!response) {
      return std::nullopt;
    }
    return Render([response = std::move(*response)](std::optional<std::int64_t> charged) {
      return bars_to_json(response, charged);
    });
  }

  // Return the response itself, as answer() renders it; nullopt as answer() says.
  std::optional<BarsResponse>
  answer_typed(const query::Catalog& catalog, StoreView& view, const std::string& request_id) {
    const auto& symbols = m_request.query.symbols;
    std::vector<query::SymbolBars> items;
    std::vector<std::vector<std::string_view>> bar_json(symbols.size());
    std::vector<std::vector<domain::BarTenThousandths>> bar_exact(symbols.size());
    std::vector<std::shared_ptr<const void>> keep_alive;
    for (std::size_t i = 0; i < symbols.size(); ++i) {
      const auto* info = catalog.find(symbols[i].str());
      if (info == nullptr) {
        items.push_back(query::SymbolBars{symbols[i].str(), false, {}, false, {}});
        continue;
      }
      if (view.caches_histories()) {
        if (auto history = view.history(*info); history.rendered) {
          items.push_back(
            select_bars(*history.rendered, info->symbol, m_request.query, bar_json[i]));
          keep_alive.push_back(std::move(history.rendered));
          continue;
        } else if (history.compact) {
          // Decoded and written per request (issue 11, P5), as a read of the store would be.
          auto window =
            history.compact->read_window(info->symbol, m_request.query, info->latest_factor);
          items.push_back(std::move(window.item));
          bar_exact[i] = std::move(window.exact);
          continue;
        }
        if (!view.may_wait()) {
          return std::nullopt; // to a worker thread, which may read the store
        }
      }
      // A one-shot command, or a symbol's first miss: read just its rows.
      auto item = view.read_window(*info, m_request.query);
      if (!item) {
        return std::nullopt;
      }
      items.push_back(std::move(*item));
    }
    auto dataset = catalog.dataset;
    dataset.source = catalog.source_of(symbols); // D8: the source of the symbols served
    auto response = make_bars_response(m_request, request_id, dataset, std::move(items));
    response.bar_json = std::move(bar_json);
    response.bar_exact = std::move(bar_exact);
    response.keep_alive = std::move(keep_alive);
    return response;
  }

private:
  BarsRequest m_request;
};

} // namespace

Result<std::unique_ptr<EndpointRequest>> parse_bars_endpoint(std::span<const std::string> captures,
                                                             const QueryParams& params) {
  auto request =
      parse_bars_request(BarsPath{captures[0], captures[1], captures[2], captures[3]}, params);
  if (!request) {
    return request.error();
  }
  return std::unique_ptr<EndpointRequest>(
      std::make_unique<BarsEndpointRequest>(std::move(*request)));
}

Result<BarsResponse>
answer_bars_trusted(BarsRequest request, Services& services, const Caller& caller) {
  assert(!caller.metered); // a trusted caller is never charged
  StoreView view(services.bars, services.catalog, services.histories, services.cache_histories,
                 Waiting::allowed, StoreView::Clock::now());
  const auto catalog = view.catalog(request.query.symbols); // may wait: never null
  // The rest of D6 after authentication, as dispatch checks it: D1's single unknown symbol (400),
  // then the plan (403).
  if (auto status = check_single_symbol_known(request.query.symbols, *catalog); !status) {
    return status.error();
  }
  BarsEndpointRequest endpoint(std::move(request));
  if (auto status = endpoint.apply_plan(caller, catalog->dataset.as_of); !status) {
    return status.error();
  }
  auto response = std::move(*endpoint.answer_typed(*catalog, view,
                                                   auth::generate_uuid(services.random)));
  set_item_errors(response);
  return response;
}

Status
check_bars_plan(const BarsRequest& request, const Caller& caller, std::optional<Date> as_of) {
  if (auto status = check_plan_maxima(caller.plan, request.query.symbols.size(), request.limit);
      !status) {
    return status;
  }
  if (as_of) {
    const auto earliest = auth::earliest_reachable(caller.plan, *as_of);
    if (earliest && request.query.from < *earliest) {
      return make_error(ErrorCode::plan_limit,
                        "from \"" + request.query.from.iso() + "\" is earlier than "
                            + earliest->iso() + ", the earliest date reachable"
                            + on_plan(caller.plan) + " (as_of " + as_of->iso() + ")");
    }
  }
  return Ok{};
}

BarsResponse make_bars_response(const BarsRequest& request,
                                const std::string& request_id,
                                const store::DatasetInfo& dataset,
                                std::vector<query::SymbolBars> items) {
  BarsResponse response;
  response.request_id = request_id;
  response.single = request.query.symbols.size() == 1;
  response.adjusted = request.query.adjusted;
  response.from = request.query.from;
  response.to = request.query.to;
  response.dataset = dataset;
  response.items = std::move(items);
  for (const auto& item : response.items) {
    response.next_urls.push_back(
        item.has_more ? std::optional(next_url(request, item.symbol, item.bars.back().trade_date))
                      : std::nullopt);
  }
  return response;
}

} // namespace ashare::api
