#include "core/remote/cached_remote.hpp"

#include "core/api/json.hpp"
#include "core/api/data_view.hpp"
#include "core/overloaded.hpp"
#include "core/query/catalog.hpp"
#include "core/remote/reply.hpp"
#include "core/remote/revalidation.hpp"

#include <algorithm>

namespace ashare::remote {
namespace {

using domain::Date;

bool is_invalid_symbol(const http::Reply& reply) {
  const auto error = api::error_from_json(reply.body);
  return reply.status == 400 && error && error->code == ErrorCode::invalid_symbol;
}

} // namespace

// The cache as the DataView of api::answer: its catalog() fills the cache with what a request reads
// first, then window() and values() read the cache alone.
class CachedRemote::CacheView final : public api::DataView {
public:
  CacheView(http::Gateway& remote, store::CacheStore& cache, const RemoteSettings& settings)
    : m_cache(cache), m_settings(settings),
      m_filler(remote, cache, settings.base_url, settings.plan, settings.now_ms) {}

  api::CatalogRead catalog(const api::TypedRequest& request) override {
    const auto as_of = current_as_of();
    if (!as_of) {
      return forward("does not know the remote's as_of");
    }
    return std::visit(
      Overloaded{[&](const api::HealthRequest&) -> api::CatalogRead { return catalog_of(*as_of); },
                 [&](const api::BarsRequest& bars) { return fill_window(bars, *as_of); },
                 [&](const api::IndicatorRequest& values) { return fill_history(values, *as_of); },
                 [&](const api::MembersRequest&) -> api::CatalogRead {
                   return forward("keeps no index membership"); // D20: the remote answers
                 }},
      request);
  }

  api::Read<api::BarsItem> window(const store::SymbolInfo& info,
                                  const query::BarQuery& query) override {
    const auto read = [&](Date from, Date to, domain::SortOrder order, std::int64_t limit) {
      return m_cache.load_bars(m_settings.base_url, info.symbol, from, to, order, limit);
    };
    return api::BarsItem(query::read_window(info.symbol, read, query, info.latest_factor));
  }

  api::Read<query::SymbolValues> values(const store::SymbolInfo& info,
                                        const query::IndicatorQuery& query) override {
    std::vector<store::PriceSeries> series;
    for (const auto field : query::input_fields(query)) {
      series.push_back(m_cache.load_price_series(m_settings.base_url, info.symbol, field));
    }
    return query::values_from_series(info.symbol, series, query, info.latest_factor);
  }

  api::Read<api::IndexMembers> members(const api::MembersRequest&) override {
    return api::Unanswered::forward; // never reached: catalog() forwards a members request
  }

private:
  // Return Unanswered::forward: the remote answers, as the cache, which `lacks` what the answer
  // reads, cannot. Offline, throw OfflineMiss saying what it lacks.
  api::Unanswered forward(const std::string& lacks) const {
    require_online(lacks);
    return api::Unanswered::forward;
  }

  void require_online(const std::string& lacks) const {
    if (m_settings.offline) {
      throw OfflineMiss("--offline: the cache of " + m_settings.base_url + " " + lacks
                        + "; run without --offline (or ashare sync) first");
    }
  }

  bool refreshing() const { return m_settings.refresh && !m_settings.offline; }

  std::optional<Date> current_as_of() {
    if (m_settings.offline) {
      return m_filler.recorded_as_of();
    }
    auto as_of = m_filler.as_of(refreshing());
    if (!as_of) {
      throw Unreachable(as_of.error().message);
    }
    return *as_of;
  }

  // The anchor factor of `symbol` learned at `as_of`, or nullopt.
  std::optional<double> current_anchor(const std::string& symbol, Date as_of) {
    const auto anchor = m_cache.find_anchor(m_settings.base_url, symbol);
    if (!anchor || anchor->as_of != as_of) {
      return std::nullopt;
    }
    return anchor->factor;
  }

  // Make the cache hold every bar of `symbol` over `window` (up to `as_of`; later days have no
  // bars yet) and, when `adjusted`, its anchor at `as_of`: fetch only what is missing.
  Refusal fill(const std::string& symbol, DateRange window, Date as_of, bool adjusted) {
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

  // The catalog at `as_of`, before any symbol is known.
  std::shared_ptr<query::Catalog> catalog_of(Date as_of) {
    auto catalog = std::make_shared<query::Catalog>();
    catalog->dataset = store::DatasetInfo{as_of, m_cache.load_remote(m_settings.base_url).source, 0};
    return catalog;
  }

  // Fill the cache for `symbols` with `fill_one`, and return the catalog of those the remote
  // knows: D1's unknown symbol is the remote's 400 INVALID_SYMBOL; any other refusal is the
  // answer. Each symbol's anchor (D8) is the one learned at `as_of`, and its source the one the
  // remote reported (D8's meta.source).
  template <class FillOne>
  api::CatalogRead fill_symbols(const std::vector<domain::Symbol>& symbols,
                                Date as_of,
                                bool adjusted,
                                FillOne fill_one) {
    auto catalog = catalog_of(as_of);
    for (const auto& symbol : symbols) {
      const std::string& name = symbol.str();
      if (auto refusal = fill_one(name)) {
        if (is_invalid_symbol(*refusal)) {
          continue;
        }
        return error_of_reply(*refusal);
      }
      const auto anchor = adjusted ? current_anchor(name, as_of) : 1.0;
      if (!anchor) {
        // The latest bar lies beyond the plan's reach of an anchor request: the remote knows it.
        return forward("does not know the latest adjustment factor of " + name);
      }
      store::SymbolInfo info;
      info.symbol = name;
      info.latest_factor = *anchor;
      info.source = m_cache.find_symbol_source(m_settings.base_url, name)
                      .value_or(catalog->dataset.source);
      catalog->symbols.emplace(name, std::move(info));
    }
    return std::shared_ptr<const query::Catalog>(std::move(catalog));
  }

  api::CatalogRead fill_window(const api::BarsRequest& request, Date as_of) {
    const auto& query = request.query;
    return fill_symbols(query.symbols, as_of, query.adjusted, [&](const std::string& name) {
      return fill(name, {query.from, query.to}, as_of, query.adjusted);
    });
  }

  // D9: an indicator reads the symbol's whole history, which only a plan reaching all history
  // can have fetched: without it in the cache, the remote answers.
  api::CatalogRead fill_history(const api::IndicatorRequest& request, Date as_of) {
    const auto& query = request.query;
    for (const auto& symbol : query.symbols) {
      if (!reaches_first_session(m_filler.coverage(symbol.str()))) {
        return forward("lacks the whole history of " + symbol.str() + " indicators need");
      }
    }
    return fill_symbols(query.symbols, as_of, query.adjusted, [&](const std::string& name) {
      return fill(name, {domain::k_first_session, as_of}, as_of, query.adjusted);
    });
  }

  store::CacheStore& m_cache;
  const RemoteSettings& m_settings;
  CacheFiller m_filler;
  FetchStats m_stats;
};

CachedRemote::CachedRemote(http::Gateway& remote,
                           store::CacheStore& cache,
                           RemoteSettings settings,
                           auth::RandomSource& random)
  : m_remote(remote), m_cache(cache), m_settings(std::move(settings)), m_random(random),
    m_view(std::make_unique<CacheView>(remote, cache, m_settings)) {}

CachedRemote::~CachedRemote() = default;

api::Answer CachedRemote::answer(const api::TypedRequest& request) {
  // D6: the remote refuses what the key may not fetch; its plan gives the defaults here.
  const api::Caller caller{0, m_settings.plan, false, true};
  auto answered = api::answer(request, caller, *m_view, auth::generate_uuid(m_random));
  if (const auto* unanswered = std::get_if<api::Unanswered>(&answered);
      unanswered != nullptr && *unanswered == api::Unanswered::forward) {
    return answer_of_reply(
      request, get_revalidated(m_remote, m_cache, m_settings.base_url, api::to_target(request)));
  }
  return answered;
}

} // namespace ashare::remote
