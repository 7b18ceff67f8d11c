#include "core/remote/cache_filler.hpp"

#include "core/api/bars_request.hpp"
#include "core/api/dispatch.hpp"
#include "core/api/json.hpp"
#include "core/domain/symbol.hpp"
#include "core/remote/freshness.hpp"
#include "core/remote/revalidation.hpp"

#include <algorithm>
#include <stdexcept>

namespace ashare::remote {
namespace {

using domain::Date;

// Return the request for the raw bars (adjusted=false) of `symbols` over `range`; `symbols` are
// canonical (the cache holds nothing else).
api::BarsRequest raw_bars_request(const std::vector<std::string>& symbols, DateRange range) {
  api::BarsRequest request;
  for (const auto& text : symbols) {
    auto symbol = domain::parse_symbol(text);
    if (!symbol) {
      throw std::invalid_argument(symbol.error().message);
    }
    request.query.symbols.push_back(std::move(*symbol));
  }
  request.query.from = range.first;
  request.query.to = range.last;
  request.query.adjusted = false;
  return request;
}

// Return the source `response` reports for each symbol it serves (D8), when that can be told:
// an answer serving one symbol, or one naming a single source for all of them. A list such as
// "tushare,akshare" cannot be split among several symbols: nullopt.
std::optional<std::string> symbol_source(const api::BarsResponse& response) {
  const auto served = std::count_if(response.items.begin(), response.items.end(),
                                    [](const api::BarsItem& item) { return !item.error; });
  if (served == 1 || response.dataset.source.find(',') == std::string::npos) {
    return response.dataset.source;
  }
  return std::nullopt;
}

// Return the range of calendar days page `item` of `response` covers: its whole window when
// nothing follows (clamped to as_of: later days have no bars yet), else up to its last bar (asc).
DateRange covered_by(const api::BarsResponse& response, std::size_t i, Date as_of) {
  const auto& item = response.items[i];
  if (item.next_url && !item.bars().empty()) {
    return {response.from, item.bars().back().trade_date};
  }
  return {response.from, std::min(response.to, as_of)};
}

} // namespace

CacheFiller::CacheFiller(http::Gateway& remote,
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
  if (m_checked || (!force && !is_check_due(state.checked_at_ms, m_now_ms))) {
    return state.as_of;
  }
  const auto reply = get(m_remote, std::string(api::k_health_path));
  m_checked = true;
  if (reply.status != 200) {
    return make_error(ErrorCode::internal, m_base_url + std::string(api::k_health_path)
                                               + " answered HTTP " + std::to_string(reply.status));
  }
  auto as_of = api::health_as_of_from_json(reply.body);
  if (!as_of) {
    return as_of.error();
  }
  m_cache.save_check(m_base_url, *as_of, m_now_ms);
  return *as_of;
}

std::vector<DateRange> CacheFiller::coverage(const std::string& symbol) {
  std::vector<DateRange> ranges;
  for (const auto& row : m_cache.load_coverage(m_base_url, symbol)) {
    ranges.push_back({row.first, row.last});
  }
  return merge_ranges(std::move(ranges));
}

Refusal
CacheFiller::fetch(const std::vector<std::string>& symbols, DateRange range, FetchStats& stats) {
  // No `limit`: the remote pages at its plan's maximum (D4) and says so with next_url (D8).
  return fetch_pages(raw_bars_request(symbols, range).to_target(), stats);
}

Refusal CacheFiller::fetch_pages(std::string target, FetchStats& stats) {
  std::vector<std::string> pending{std::move(target)};
  while (!pending.empty()) {
    const auto reply = get(m_remote, pending.back());
    pending.pop_back();
    ++stats.requests;
    if (reply.status != 200) {
      return reply;
    }
    auto response = api::bars_from_json(reply.body);
    if (!response) {
      return http::Reply{502, api::error_to_json(response.error())};
    }
    if (!response->dataset.as_of) {
      continue; // the remote holds no data at all: nothing to cache
    }
    const Date as_of = *response->dataset.as_of;
    m_cache.save_answer_meta(m_base_url, as_of, response->dataset.source);
    const auto source = symbol_source(*response);
    for (std::size_t i = 0; i < response->items.size(); ++i) {
      auto& item = response->items[i];
      if (item.error) {
        stats.unknown.push_back(item.symbol);
        continue;
      }
      const auto range = covered_by(*response, i, as_of);
      const auto bars = item.bars();
      stats.bars += static_cast<std::int64_t>(bars.size());
      m_cache.save_page(m_base_url, {item.symbol, {bars.begin(), bars.end()}, range.first,
                                     range.last, as_of, source});
      if (item.next_url) {
        pending.push_back(*item.next_url);
      } else if (!bars.empty() && response->to >= as_of) {
        // The window reached as_of, so its last bar is the symbol's latest: the D8 anchor.
        m_cache.save_anchor(m_base_url, item.symbol, {bars.back().factor, as_of});
        stats.anchored.insert(item.symbol);
      }
    }
  }
  return std::nullopt;
}

Refusal CacheFiller::fetch_anchor(const std::string& symbol, Date as_of, FetchStats& stats) {
  const Date from = auth::earliest_reachable(m_plan, as_of).value_or(domain::k_first_session);
  auto request = raw_bars_request({symbol}, {from, as_of});
  request.query.sort = domain::SortOrder::desc;
  request.limit = 1;
  // --refresh asks this again for every symbol: unchanged, it costs nothing (D17).
  const auto reply = get_revalidated(m_remote, m_cache, m_base_url, request.to_target());
  ++stats.requests;
  stats.anchored.insert(symbol);
  if (reply.status != 200) {
    return reply;
  }
  auto response = api::bars_from_json(reply.body);
  if (!response) {
    return http::Reply{502, api::error_to_json(response.error())};
  }
  if (!response->dataset.as_of || response->items.empty()) {
    return std::nullopt;
  }
  const Date remote_as_of = *response->dataset.as_of;
  m_cache.save_answer_meta(m_base_url, remote_as_of, response->dataset.source);
  const auto bars = response->items.front().bars();
  // desc with limit 1: no bar lies between the one returned (if any) and the window's end.
  const Date last = std::min(as_of, remote_as_of);
  const Date first = bars.empty() ? from : bars.front().trade_date;
  stats.bars += static_cast<std::int64_t>(bars.size());
  m_cache.save_page(m_base_url, {symbol, {bars.begin(), bars.end()}, first, last, remote_as_of,
                                 symbol_source(*response)});
  if (!bars.empty() && as_of >= remote_as_of) {
    m_cache.save_anchor(m_base_url, symbol, {bars.front().factor, remote_as_of});
  }
  return std::nullopt;
}

} // namespace ashare::remote
