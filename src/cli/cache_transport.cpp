#include "cli/cache_transport.hpp"

#include "cli/cache_fill.hpp"
#include "cli/cache_render.hpp"
#include "core/api/json.hpp"
#include "core/auth/api_key.hpp"

#include <stdexcept>

namespace ashare::cli {
namespace {

using domain::Date;

constexpr std::int64_t k_default_indicator_limit = 10; // D4

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    const auto slash = path.find('/', start);
    segments.push_back(path.substr(start, slash == std::string::npos ? slash : slash - start));
    if (slash == std::string::npos) {
      break;
    }
    start = slash + 1;
  }
  return segments;
}

// Return the segments of a bars path /v1/ohlc/range/M/T/FROM/TO, or nullopt.
std::optional<api::BarsPath> bars_path(const std::string& path) {
  const auto s = split_path(path);
  if (s.size() != 8 || !s[0].empty() || s[1] != "v1" || s[2] != "ohlc" || s[3] != "range") {
    return std::nullopt;
  }
  return api::BarsPath{s[4], s[5], s[6], s[7]};
}

// Return the indicator of an indicator path /v1/indicators/NAME, or nullopt.
std::optional<query::Indicator> indicator_path(const std::string& path) {
  for (const auto indicator :
       {query::Indicator::ema, query::Indicator::rsi, query::Indicator::sma}) {
    if (path == "/v1/indicators/" + std::string(api::indicator_name(indicator))) {
      return indicator;
    }
  }
  return std::nullopt;
}

bool is_invalid_symbol(const Reply& reply) {
  const auto error = api::error_from_json(reply.body);
  return reply.status == 400 && error && error->code == ErrorCode::invalid_symbol;
}

Reply error_reply(const Error& error) {
  return Reply{error_info(error.code).http_status, api::error_to_json(error)};
}

auth::Plan plan_of(const Config& config) {
  auto plan = auth::parse_plan(config.plan);
  if (!plan) {
    throw std::invalid_argument(plan.error().message);
  }
  return *plan;
}

class CachingTransport final : public Transport {
public:
  CachingTransport(const Config& config,
                   const RemoteOptions& options,
                   std::unique_ptr<Transport> remote,
                   std::int64_t now_ms)
      : m_base_url(*config.base_url), m_options(options), m_plan(plan_of(config)),
        m_remote(std::move(remote)), m_cache(config.cache_db),
        m_filler(*m_remote, m_cache, m_base_url, m_plan, now_ms) {}

  Reply get(const std::string& target) override {
    const auto question = target.find('?');
    const std::string path = target.substr(0, question);
    const auto params =
        api::QueryParams::parse(question == std::string::npos ? "" : target.substr(question + 1));
    if (path == "/healthz") {
      return answer_health(target);
    }
    if (const auto bars = bars_path(path)) {
      return answer_bars(*bars, params, target);
    }
    if (const auto indicator = indicator_path(path)) {
      return answer_indicator(*indicator, params, target);
    }
    return forward(target, "cannot answer GET " + path);
  }

  std::string describe() const override { return m_base_url; }

private:
  // Throw OfflineMiss, saying that the cache `lacks`, when --offline forbids the network.
  void require_online(const std::string& lacks) const {
    if (m_options.offline) {
      throw OfflineMiss("--offline: the cache of " + m_base_url + " " + lacks
                        + "; run without --offline (or ashare sync) first");
    }
  }

  Reply forward(const std::string& target, const std::string& lacks) {
    require_online(lacks);
    return m_remote->get(target);
  }

  // An invalid request: the remote words its own error; offline, the core's words stand in.
  Reply refuse(const std::string& target, const Error& error) {
    return m_options.offline ? error_reply(error) : forward(target, "");
  }

  bool refreshing() const { return m_options.refresh && !m_options.offline; }

  std::optional<Date> current_as_of() {
    if (m_options.offline) {
      return m_filler.recorded_as_of();
    }
    auto as_of = m_filler.as_of(refreshing());
    if (!as_of) {
      throw NetworkError(as_of.error().message);
    }
    return *as_of;
  }

  // The anchor factor of `symbol` learned at `as_of`, or nullopt.
  std::optional<double> current_anchor(const std::string& symbol, Date as_of) {
    const auto anchor = m_cache.find_anchor(m_base_url, symbol);
    if (!anchor || anchor->as_of != as_of) {
      return std::nullopt;
    }
    return anchor->factor;
  }

  // Make the cache hold every bar of `symbol` over `window` (up to `as_of`; later days have no
  // bars yet) and, when `adjusted`, its anchor at `as_of`: fetch only what is missing.
  Refusal fill(const std::string& symbol, query::DateRange window, Date as_of, bool adjusted) {
    const auto covered = m_filler.coverage(symbol);
    const auto missing = query::missing_ranges(covered, window.first, std::min(window.last, as_of));
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
        covered.empty() && missing.empty() && !m_cache.find_anchor(m_base_url, symbol);
    if ((adjusted && stale) || never_seen) {
      require_online("does not know the latest adjustment factor of " + symbol);
      return m_filler.fetch_anchor(symbol, as_of, m_stats);
    }
    return std::nullopt;
  }

  Reply answer_health(const std::string& target) {
    const auto as_of = current_as_of();
    if (!as_of) {
      return forward(target, "does not know the remote's as_of");
    }
    return Reply{200, api::health_to_json(store::DatasetInfo{as_of, "", 0})};
  }

  // The view to render from once every symbol is filled (fills may have learned a new source).
  CachedView view_of(Date as_of, std::vector<std::optional<double>> anchors) {
    return CachedView{m_cache, m_base_url,
                      store::DatasetInfo{as_of, m_cache.load_remote(m_base_url).source, 0},
                      std::move(anchors), auth::generate_uuid(m_random)};
  }

  Reply answer_bars(const api::BarsPath& path,
                    const api::QueryParams& params,
                    const std::string& target) {
    auto request = api::parse_bars_request(path, params);
    if (!request) {
      return refuse(target, request.error());
    }
    const auto as_of = current_as_of();
    if (!as_of) {
      return forward(target, "does not know the remote's as_of");
    }
    auto& query = request->query;
    query.limit = request->limit.value_or(auth::plan_limits(m_plan).max_limit);
    std::vector<std::optional<double>> anchors;
    for (const auto& symbol : query.symbols) {
      auto refusal = fill(symbol.str(), {query.from, query.to}, *as_of, query.adjusted);
      // D1: an unknown symbol among several is an item error, not a failed request.
      if (refusal && !(query.symbols.size() > 1 && is_invalid_symbol(*refusal))) {
        return *refusal;
      }
      const auto anchor = query.adjusted ? current_anchor(symbol.str(), *as_of) : 1.0;
      if (!refusal && !anchor) {
        // The latest bar lies beyond the plan's reach of an anchor request: the remote knows it.
        return forward(target, "does not know the latest adjustment factor of " + symbol.str());
      }
      anchors.push_back(refusal ? std::nullopt : anchor);
    }
    return Reply{200, render_cached_bars(*request, view_of(*as_of, std::move(anchors)))};
  }

  Reply answer_indicator(query::Indicator indicator,
                         const api::QueryParams& params,
                         const std::string& target) {
    auto request = api::parse_indicator_request(indicator, params);
    if (!request) {
      return refuse(target, request.error());
    }
    const auto as_of = current_as_of();
    if (!as_of) {
      return forward(target, "does not know the remote's as_of");
    }
    for (const auto& symbol : request->query.symbols) {
      if (!query::reaches_first_session(m_filler.coverage(symbol.str()))) {
        return forward(target, "lacks the whole history of " + symbol.str() + " indicators need");
      }
    }
    std::vector<std::optional<double>> anchors;
    for (const auto& symbol : request->query.symbols) {
      if (auto refusal = fill(symbol.str(), {query::k_first_session, *as_of}, *as_of,
                              request->query.adjusted)) {
        return *refusal;
      }
      const auto anchor = request->query.adjusted ? current_anchor(symbol.str(), *as_of) : 1.0;
      if (!anchor) {
        return forward(target, "does not know the latest adjustment factor of " + symbol.str());
      }
      anchors.push_back(anchor);
    }
    // D6: only a plan that reaches all history could fill the cache from the first session on, so
    // the answer is that plan's: nothing is clipped.
    const api::Caller caller{0, auth::Plan::pro, false};
    if (auto status = api::check_indicator_plan(*request, caller, *as_of); !status) {
      return error_reply(status.error());
    }
    request->query.limit = request->limit.value_or(k_default_indicator_limit);
    return Reply{200, render_cached_indicators(*request, view_of(*as_of, std::move(anchors)))};
  }

  std::string m_base_url;
  RemoteOptions m_options;
  auth::Plan m_plan;
  std::unique_ptr<Transport> m_remote;
  store::CacheStore m_cache;
  CacheFiller m_filler;
  FetchStats m_stats;
  auth::SystemRandom m_random;
};

} // namespace

std::unique_ptr<Transport> make_caching_transport(const Config& config,
                                                  const RemoteOptions& options,
                                                  std::unique_ptr<Transport> remote,
                                                  std::int64_t now_ms) {
  return std::make_unique<CachingTransport>(config, options, std::move(remote), now_ms);
}

} // namespace ashare::cli
