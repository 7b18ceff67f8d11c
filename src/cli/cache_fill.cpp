#include "cli/cache_fill.hpp"

#include "core/api/json.hpp"
#include "core/api/query_params.hpp"
#include "core/query/freshness.hpp"

#include <algorithm>

namespace ashare::cli {
namespace {

using domain::Date;

std::string bars_target(Date from, Date to, const std::string& query) {
  return "/v1/ohlc/range/1/day/" + from.iso() + "/" + to.iso() + "?" + query;
}

std::string joined(const std::vector<std::string>& symbols) {
  std::string out;
  for (const auto& symbol : symbols) {
    out += (out.empty() ? "" : ",") + symbol;
  }
  return out;
}

// Return the range of calendar days page `item` of `response` covers: its whole window when
// nothing follows (clamped to as_of: later days have no bars yet), else up to its last bar (asc).
query::DateRange covered_by(const api::BarsResponse& response, std::size_t i, Date as_of) {
  const auto& item = response.items[i];
  if (response.next_urls[i] && !item.bars.empty()) {
    return {response.from, item.bars.back().trade_date};
  }
  return {response.from, std::min(response.to, as_of)};
}

} // namespace

CacheFiller::CacheFiller(Transport& remote,
                         store::CacheStore& cache,
                         std::string base_url,
                         auth::Plan plan,
                         std::int64_t now_ms)
    : m_remote(remote), m_cache(cache), m_base_url(std::move(base_url)), m_plan(plan),
      m_now_ms(now_ms) {}

std::optional<Date> CacheFiller::recorded_as_of() {
  return m_cache.load_remote(m_base_url).as_of;
}

Result<std::optional<Date>> CacheFiller::as_of(bool force) {
  const auto state = m_cache.load_remote(m_base_url);
  if (m_checked || (!force && !query::is_check_due(state.checked_at_ms, m_now_ms))) {
    return state.as_of;
  }
  const auto reply = m_remote.get("/healthz");
  m_checked = true;
  if (reply.status != 200) {
    return make_error(ErrorCode::internal,
                      m_base_url + "/healthz answered HTTP " + std::to_string(reply.status));
  }
  auto as_of = api::health_as_of_from_json(reply.body);
  if (!as_of) {
    return as_of.error();
  }
  m_cache.save_check(m_base_url, *as_of, m_now_ms);
  return *as_of;
}

std::vector<query::DateRange> CacheFiller::coverage(const std::string& symbol) {
  std::vector<query::DateRange> ranges;
  for (const auto& row : m_cache.load_coverage(m_base_url, symbol)) {
    ranges.push_back({row.first, row.last});
  }
  return query::merge_ranges(std::move(ranges));
}

Refusal CacheFiller::fetch(const std::vector<std::string>& symbols,
                           query::DateRange range,
                           FetchStats& stats) {
  // No `limit`: the remote pages at its plan's maximum (D4) and says so with next_url (D8).
  const std::string query = "symbol=" + api::percent_encode(joined(symbols)) + "&adjusted=false";
  return fetch_pages(bars_target(range.first, range.last, query), stats);
}

Refusal CacheFiller::fetch_pages(std::string target, FetchStats& stats) {
  std::vector<std::string> pending{std::move(target)};
  while (!pending.empty()) {
    const auto reply = m_remote.get(pending.back());
    pending.pop_back();
    ++stats.requests;
    if (reply.status != 200) {
      return reply;
    }
    auto response = api::bars_from_json(reply.body);
    if (!response) {
      return Reply{502, api::error_to_json(response.error())};
    }
    if (!response->dataset.as_of) {
      continue; // the remote holds no data at all: nothing to cache
    }
    const Date as_of = *response->dataset.as_of;
    m_cache.save_answer_meta(m_base_url, as_of, response->dataset.source);
    for (std::size_t i = 0; i < response->items.size(); ++i) {
      auto& item = response->items[i];
      if (response->errors[i]) {
        stats.unknown.push_back(item.symbol);
        continue;
      }
      const auto range = covered_by(*response, i, as_of);
      stats.bars += static_cast<std::int64_t>(item.bars.size());
      m_cache.save_page(m_base_url, {item.symbol, item.bars, range.first, range.last, as_of});
      if (response->next_urls[i]) {
        pending.push_back(*response->next_urls[i]);
      } else if (!item.bars.empty() && response->to >= as_of) {
        // The window reached as_of, so its last bar is the symbol's latest: the D8 anchor.
        m_cache.save_anchor(m_base_url, item.symbol, {item.bars.back().factor, as_of});
        stats.anchored.insert(item.symbol);
      }
    }
  }
  return std::nullopt;
}

Refusal CacheFiller::fetch_anchor(const std::string& symbol, Date as_of, FetchStats& stats) {
  const Date from = auth::earliest_reachable(m_plan, as_of).value_or(query::k_first_session);
  const std::string query =
      "symbol=" + api::percent_encode(symbol) + "&adjusted=false&sort=desc&limit=1";
  const auto reply = m_remote.get(bars_target(from, as_of, query));
  ++stats.requests;
  stats.anchored.insert(symbol);
  if (reply.status != 200) {
    return reply;
  }
  auto response = api::bars_from_json(reply.body);
  if (!response) {
    return Reply{502, api::error_to_json(response.error())};
  }
  if (!response->dataset.as_of || response->items.empty()) {
    return std::nullopt;
  }
  const Date remote_as_of = *response->dataset.as_of;
  m_cache.save_answer_meta(m_base_url, remote_as_of, response->dataset.source);
  const auto& bars = response->items.front().bars;
  // desc with limit 1: no bar lies between the one returned (if any) and the window's end.
  const Date last = std::min(as_of, remote_as_of);
  const Date first = bars.empty() ? from : bars.front().trade_date;
  stats.bars += static_cast<std::int64_t>(bars.size());
  m_cache.save_page(m_base_url, {symbol, bars, first, last, remote_as_of});
  if (!bars.empty() && as_of >= remote_as_of) {
    m_cache.save_anchor(m_base_url, symbol, {bars.front().factor, remote_as_of});
  }
  return std::nullopt;
}

} // namespace ashare::cli
