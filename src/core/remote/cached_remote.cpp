#include "core/remote/cached_remote.hpp"

#include "core/api/bars_endpoint.hpp"
#include "core/api/caller.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/indicator_endpoint.hpp"
#include "core/api/json.hpp"
#include "core/query/catalog.hpp"
#include "core/remote/revalidation.hpp"

#include <algorithm>

namespace ashare::remote {
namespace {

using domain::Date;

bool is_invalid_symbol(const Reply& reply) {
  const auto error = api::error_from_json(reply.body);
  return reply.status == 400 && error && error->code == ErrorCode::invalid_symbol;
}

Reply error_reply(const Error& error) {
  return Reply{error_info(error.code).http_status, api::error_to_json(error)};
}

} // namespace

CachedRemote::CachedRemote(Upstream& upstream,
                           store::CacheStore& cache,
                           RemoteSettings settings,
                           auth::RandomSource& random)
    : m_upstream(upstream), m_cache(cache), m_settings(std::move(settings)), m_random(random),
      m_filler(upstream, cache, m_settings.base_url, m_settings.plan, m_settings.now_ms) {}

Reply CachedRemote::get(const std::string& target) {
  const auto question = target.find('?');
  const std::string path = target.substr(0, question);
  const std::string query = question == std::string::npos ? "" : target.substr(question + 1);
  auto request = api::parse_typed_request(path, query);
  if (!request) {
    return forward(target, "cannot answer GET " + path);
  }
  if (!*request) {
    // An invalid request: the remote words its own error; offline, the core's words stand in.
    return refuse(target, request->error());
  }
  if (std::holds_alternative<api::HealthRequest>(**request)) {
    return answer_health(target);
  }
  if (auto* bars = std::get_if<api::BarsRequest>(&**request)) {
    auto answer = answer_bars(std::move(*bars), target);
    if (auto* response = std::get_if<api::BarsResponse>(&answer)) {
      return Reply{200, api::bars_to_json(*response, std::nullopt)};
    }
    return std::get<Reply>(std::move(answer));
  }
  return answer_indicator(std::get<api::IndicatorRequest>(std::move(**request)), target);
}

std::variant<api::BarsResponse, Reply> CachedRemote::get_bars(api::BarsRequest request) {
  const std::string target = request.to_target();
  auto answer = answer_bars(std::move(request), target);
  if (auto* response = std::get_if<api::BarsResponse>(&answer)) {
    api::set_item_errors(*response);
  }
  return answer;
}

void CachedRemote::require_online(const std::string& lacks) const {
  if (m_settings.offline) {
    throw OfflineMiss("--offline: the cache of " + m_settings.base_url + " " + lacks
                      + "; run without --offline (or ashare sync) first");
  }
}

Reply CachedRemote::forward(const std::string& target, const std::string& lacks) {
  require_online(lacks);
  return get_revalidated(m_upstream, m_cache, m_settings.base_url, target);
}

Reply CachedRemote::refuse(const std::string& target, const Error& error) {
  return m_settings.offline ? error_reply(error) : forward(target, "");
}

bool CachedRemote::refreshing() const {
  return m_settings.refresh && !m_settings.offline;
}

std::optional<Date> CachedRemote::current_as_of() {
  if (m_settings.offline) {
    return m_filler.recorded_as_of();
  }
  auto as_of = m_filler.as_of(refreshing());
  if (!as_of) {
    throw UpstreamFailure(as_of.error().message);
  }
  return *as_of;
}

// The anchor factor of `symbol` learned at `as_of`, or nullopt.
std::optional<double> CachedRemote::current_anchor(const std::string& symbol, Date as_of) {
  const auto anchor = m_cache.find_anchor(m_settings.base_url, symbol);
  if (!anchor || anchor->as_of != as_of) {
    return std::nullopt;
  }
  return anchor->factor;
}

// Make the cache hold every bar of `symbol` over `window` (up to `as_of`; later days have no bars
// yet) and, when `adjusted`, its anchor at `as_of`: fetch only what is missing.
Refusal CachedRemote::fill(const std::string& symbol, DateRange window, Date as_of, bool adjusted) {
  const auto covered = m_filler.coverage(symbol);
  const auto missing = missing_ranges(covered, window.first, std::min(window.last, as_of));
  for (const auto& range : missing) {
    require_online("has no bars of " + symbol + " from " + range.first.iso() + " to "
                   + range.last.iso());
    if (auto refusal = m_filler.fetch({symbol}, range, m_stats)) {
      return refusal;
    }
  }
  // --refresh asks each symbol's anchor once per run, unless a fetch just learned it.
  const bool refresh_anchor = refreshing() && !m_stats.anchored.contains(symbol);
  const bool stale = !current_anchor(symbol, as_of) || refresh_anchor;
  // A symbol never fetched may be unknown to the remote; its anchor request tells (D1).
  const bool never_seen =
      covered.empty() && missing.empty() && !m_cache.find_anchor(m_settings.base_url, symbol);
  if ((adjusted && stale) || never_seen) {
    require_online("does not know the latest adjustment factor of " + symbol);
    return m_filler.fetch_anchor(symbol, as_of, m_stats);
  }
  return std::nullopt;
}

Reply CachedRemote::answer_health(const std::string& target) {
  const auto as_of = current_as_of();
  if (!as_of) {
    return forward(target, "does not know the remote's as_of");
  }
  return Reply{200, api::health_to_json(store::DatasetInfo{as_of, "", 0})};
}

// The dataset to render with once every symbol is filled (fills may have learned a new source):
// meta.source as D8 says, from each served symbol's source as the remote reported it.
store::DatasetInfo CachedRemote::dataset(Date as_of, std::span<const std::string> served) {
  const auto remote_source = m_cache.load_remote(m_settings.base_url).source;
  std::vector<std::string> sources;
  for (const auto& symbol : served) {
    sources.push_back(
      m_cache.find_symbol_source(m_settings.base_url, symbol).value_or(remote_source));
  }
  return store::DatasetInfo{as_of, query::served_source(sources, remote_source), 0};
}

std::variant<api::BarsResponse, Reply> CachedRemote::answer_bars(api::BarsRequest request,
                                                                 const std::string& target) {
  const auto as_of = current_as_of();
  if (!as_of) {
    return forward(target, "does not know the remote's as_of");
  }
  auto& query = request.query;
  query.limit = request.limit_under(m_settings.plan);
  std::vector<query::SymbolBars> items;
  std::vector<std::string> served;
  for (const auto& symbol : query.symbols) {
    const std::string& name = symbol.str();
    auto refusal = fill(name, {query.from, query.to}, *as_of, query.adjusted);
    // D1: an unknown symbol among several is an item error, not a failed request.
    if (refusal && !(query.symbols.size() > 1 && is_invalid_symbol(*refusal))) {
      return *refusal;
    }
    if (refusal) {
      items.push_back(query::SymbolBars{name, false, {}, false, std::nullopt});
      continue;
    }
    const auto anchor = query.adjusted ? current_anchor(name, *as_of) : 1.0;
    if (!anchor) {
      // The latest bar lies beyond the plan's reach of an anchor request: the remote knows it.
      return forward(target, "does not know the latest adjustment factor of " + name);
    }
    const auto read = [&](Date from, Date to, domain::SortOrder order, std::int64_t limit) {
      return m_cache.load_bars(m_settings.base_url, name, from, to, order, limit);
    };
    items.push_back(query::read_window(name, read, query, *anchor));
    served.push_back(name);
  }
  return api::make_bars_response(request, auth::generate_uuid(m_random), dataset(*as_of, served),
                                 std::move(items));
}

Reply CachedRemote::answer_indicator(api::IndicatorRequest request, const std::string& target) {
  const auto as_of = current_as_of();
  if (!as_of) {
    return forward(target, "does not know the remote's as_of");
  }
  const auto& symbols = request.query.symbols;
  for (const auto& symbol : symbols) {
    if (!reaches_first_session(m_filler.coverage(symbol.str()))) {
      return forward(target, "lacks the whole history of " + symbol.str() + " indicators need");
    }
  }
  std::vector<double> anchors;
  for (const auto& symbol : symbols) {
    if (auto refusal =
            fill(symbol.str(), {domain::k_first_session, *as_of}, *as_of, request.query.adjusted)) {
      return *refusal;
    }
    const auto anchor = request.query.adjusted ? current_anchor(symbol.str(), *as_of) : 1.0;
    if (!anchor) {
      return forward(target, "does not know the latest adjustment factor of " + symbol.str());
    }
    anchors.push_back(*anchor);
  }
  // D6: only a plan that reaches all history could fill the cache from the first session on, so
  // the answer is that plan's: nothing is clipped.
  const api::Caller caller{0, auth::Plan::pro, false};
  if (auto status = api::check_indicator_plan(request, caller, *as_of); !status) {
    return error_reply(status.error());
  }
  request.query.limit = request.limit_or_default();
  std::vector<query::SymbolValues> items;
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    std::vector<store::PriceSeries> series;
    query::IndicatorInputs inputs;
    for (const auto field : query::input_fields(request.query)) {
      series.push_back(m_cache.load_price_series(m_settings.base_url, symbols[i].str(), field));
    }
    for (const auto& one : series) {
      inputs.push_back(&one);
    }
    items.push_back(query::values_from_series(symbols[i].str(), inputs, request.query, anchors[i]));
  }
  const auto response =
      api::make_indicator_response(request, auth::generate_uuid(m_random), std::move(items));
  return Reply{200, api::indicators_to_json(response)};
}

} // namespace ashare::remote
