#include "core/api/history_cache.hpp"

#include "core/api/json.hpp"
#include "core/query/summary.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace ashare::api {
namespace {

BarsJson render(const std::vector<domain::Bar>& bars) {
  BarsJson out;
  out.ends.reserve(bars.size());
  out.json.reserve(bars.size() * 200);
  for (const auto& bar : bars) {
    out.json += bar_to_json(bar);
    out.ends.push_back(static_cast<std::uint32_t>(out.json.size()));
    out.json.push_back(',');
  }
  out.json.shrink_to_fit();
  return out;
}

// Per bar, besides its two Bars and their JSON: the four price series, and the indicator series
// a history may keep.
constexpr std::size_t k_series_bytes_per_bar = 4 * (sizeof(domain::Date) + 2 * sizeof(double))
                                               + IndicatorSeriesMemo::k_max_series * sizeof(double);

std::size_t bytes_of(const std::vector<domain::Bar>& bars, const BarsJson& json) {
  return bars.capacity() * sizeof(domain::Bar) + json.json.capacity()
         + json.ends.capacity() * sizeof(std::uint32_t);
}

} // namespace

std::string_view BarsJson::bar_json(std::size_t i) const {
  const std::size_t begin = i == 0 ? 0 : ends[i - 1] + 1;
  return std::string_view(json).substr(begin, ends[i] - begin);
}

std::string_view BarsJson::joined(std::size_t first, std::size_t end) const {
  const std::size_t begin = first == 0 ? 0 : ends[first - 1] + 1;
  return std::string_view(json).substr(begin, ends[end - 1] - begin);
}

IndicatorSeriesMemo::Key IndicatorSeriesMemo::key_of(const query::IndicatorQuery& query) {
  return Key{query.indicator, query.window,      query.fast,     query.slow,
             query.signal,    query.k,           query.n,        query.m1,
             query.m2,        query.series_type, query.adjusted, query.convention};
}

std::shared_ptr<const query::IndicatorLines>
IndicatorSeriesMemo::find_or_compute(const Key& key,
                                     const std::function<query::IndicatorLines()>& compute) const {
  const auto find = [&]() -> std::shared_ptr<const query::IndicatorLines> {
    for (const auto& [kept, series] : m_series) {
      if (kept == key) {
        return series;
      }
    }
    return nullptr;
  };
  {
    std::lock_guard lock(m_mutex);
    if (auto series = find()) {
      return series;
    }
  }
  auto computed = std::make_shared<const query::IndicatorLines>(compute());
  std::lock_guard lock(m_mutex);
  if (auto series = find()) {
    return series; // another thread computed it meanwhile
  }
  if (m_series.size() == k_max_series) {
    m_series.erase(m_series.begin());
  }
  m_series.emplace_back(key, computed);
  return computed;
}

std::size_t IndicatorSeriesMemo::size() const {
  std::lock_guard lock(m_mutex);
  return m_series.size();
}

std::shared_ptr<const RenderedHistory> render_history(query::History history) {
  auto rendered = std::make_shared<RenderedHistory>();
  rendered->raw_json = render(history.raw);
  rendered->adjusted_json = render(history.adjusted);
  rendered->bytes = sizeof(RenderedHistory) + bytes_of(history.raw, rendered->raw_json)
                    + bytes_of(history.adjusted, rendered->adjusted_json)
                    + history.raw.size() * k_series_bytes_per_bar;
  rendered->history = std::move(history);
  return rendered;
}

std::size_t estimated_history_bytes(std::int64_t bars) {
  // Per bar: two Bars, their JSON (about 220 bytes each) and its end, and the series.
  constexpr std::size_t k_per_bar =
      2 * (sizeof(domain::Bar) + 220 + sizeof(std::uint32_t)) + k_series_bytes_per_bar;
  return sizeof(RenderedHistory)
         + static_cast<std::size_t>(std::max<std::int64_t>(bars, 0)) * k_per_bar;
}

std::size_t estimated_compact_bytes(std::int64_t bars) {
  // About 20 bytes a bar on a market's bars (bench/market_vs_small.py); more where values are
  // not whole 1/10000s.
  constexpr std::size_t k_per_bar = 24;
  return sizeof(query::CompactBars)
         + static_cast<std::size_t>(std::max<std::int64_t>(bars, 0)) * k_per_bar;
}

RenderedWindow select_bars(const RenderedHistory& rendered,
                           const std::string& symbol,
                           const query::BarQuery& query) {
  const auto& bars = rendered.history.bars(query.adjusted);
  const auto& json = rendered.json(query.adjusted);
  assert(rendered.history.dates().size() == bars.size());
  const auto pick = query::pick_window(std::span(rendered.history.dates()), query);
  RenderedWindow window;
  if (query.sort == domain::SortOrder::desc) {
    window.item = query::window_item(symbol, bars, query, pick);
    window.json.reserve(pick.count());
    for (std::size_t k = pick.end; k > pick.first; --k) {
      window.json.push_back(json.bar_json(k - 1));
    }
    return window;
  }
  // Ascending: the bars and their text stay where they are.
  window.in_place = std::span<const domain::Bar>(bars).subspan(pick.first, pick.count());
  window.item = query::SymbolBars{symbol, true, {}, pick.has_more, std::nullopt};
  if (query.include_summary) {
    window.item.summary = query::summarize(window.in_place, query.from, query.to);
  }
  if (pick.count() > 0) {
    window.json.push_back(json.joined(pick.first, pick.end));
  }
  return window;
}

std::shared_ptr<const RenderedHistory> HistoryCache::find_or_load(store::BarStore& store,
                                                                  const std::string& symbol,
                                                                  double latest_factor,
                                                                  std::int64_t generation) {
  if (auto cached = find(symbol, generation); cached.rendered) {
    return cached.rendered;
  }
  // Loaded without the lock: other symbols stay served meanwhile. Two threads may load the same
  // history at once; the second to finish just replaces the first.
  auto history = render_history(query::load_history(store, symbol, latest_factor));
  std::lock_guard lock(m_mutex);
  keep(symbol, generation, CachedHistory{history, nullptr}, history->bytes);
  return history;
}

std::shared_ptr<const query::CompactBars> HistoryCache::find_or_load_compact(
    store::BarStore& store, const std::string& symbol, std::int64_t generation) {
  if (auto cached = find(symbol, generation); cached.compact) {
    return cached.compact;
  }
  auto compact = std::make_shared<const query::CompactBars>(
      query::CompactBars::encode(query::load_all_bars(store, symbol)));
  std::lock_guard lock(m_mutex);
  keep(symbol, generation, CachedHistory{nullptr, compact}, compact->bytes());
  return compact;
}

void HistoryCache::keep(const std::string& symbol,
                        std::int64_t generation,
                        CachedHistory history,
                        std::size_t bytes) {
  if (const auto entry = m_entries.find(symbol); entry != m_entries.end()) {
    if (entry->second.generation > generation) {
      return; // a newer generation got there first: keep that one
    }
    erase(entry); // the same (loaded twice at once, or in the other form), or stale
  }
  if (bytes > m_budget) {
    return; // too big to keep: serve it this once
  }
  const bool rendered = history.rendered != nullptr;
  while (rendered && m_rendered_bytes + bytes > m_budget / k_rendered_share
         && !m_recent_rendered.empty()) {
    erase(m_entries.find(m_recent_rendered.back())); // the share holds, as worth_rendering() said
  }
  while (m_bytes + bytes > m_budget && !m_recent.empty()) {
    erase(m_entries.find(m_recent.back()));
  }
  m_recent.push_front(symbol);
  Entry entry{generation, std::move(history), bytes, m_recent.begin(), {}};
  if (rendered) {
    m_recent_rendered.push_front(symbol);
    entry.rendered_position = m_recent_rendered.begin();
    m_rendered_bytes += bytes;
  }
  m_entries[symbol] = std::move(entry);
  m_bytes += bytes;
}

std::uint32_t& HistoryCache::count_of(const std::string& symbol) {
  if (++m_counted >= k_age_period || m_counts.size() >= k_max_counted) {
    for (auto it = m_counts.begin(); it != m_counts.end();) {
      it->second /= 2;
      it = it->second == 0 ? m_counts.erase(it) : std::next(it);
    }
    m_counted = 0;
  }
  return m_counts[symbol];
}

HistoryForm HistoryCache::admit(const std::string& symbol, std::int64_t bars) {
  const std::size_t rendered = estimated_history_bytes(bars);
  const std::size_t compact = estimated_compact_bytes(bars);
  std::lock_guard lock(m_mutex);
  const std::uint32_t count = ++count_of(symbol);
  if (compact > m_budget || count < 2) {
    return HistoryForm::none;
  }
  if (m_bytes + rendered <= m_budget
      && m_rendered_bytes + rendered <= m_budget / k_rendered_share) {
    return HistoryForm::rendered;
  }
  if (m_bytes + compact <= m_budget || m_recent.empty()) {
    return HistoryForm::compact;
  }
  const auto victim = m_counts.find(m_recent.back());
  const std::uint32_t victim_count = victim == m_counts.end() ? 0 : victim->second;
  return count > 2 * victim_count ? HistoryForm::compact : HistoryForm::none;
}

void HistoryCache::set_budget(std::size_t budget_bytes) {
  std::lock_guard lock(m_mutex);
  m_budget = budget_bytes;
  while (m_bytes > m_budget && !m_recent.empty()) {
    erase(m_entries.find(m_recent.back()));
  }
}

CachedHistory HistoryCache::find(const std::string& symbol, std::int64_t generation) {
  std::lock_guard lock(m_mutex);
  const auto entry = m_entries.find(symbol);
  if (entry == m_entries.end() || entry->second.generation != generation) {
    return {};
  }
  m_recent.splice(m_recent.begin(), m_recent, entry->second.position);
  if (entry->second.history.rendered) {
    m_recent_rendered.splice(m_recent_rendered.begin(), m_recent_rendered,
                             entry->second.rendered_position);
  }
  ++count_of(symbol);
  return entry->second.history;
}

bool HistoryCache::worth_rendering(const std::string& symbol, std::int64_t bars) {
  const std::size_t rendered = estimated_history_bytes(bars);
  std::lock_guard lock(m_mutex);
  const std::size_t share = m_budget / k_rendered_share;
  const auto entry = m_entries.find(symbol);
  if (rendered > share || entry == m_entries.end() || !entry->second.history.compact) {
    return false;
  }
  std::size_t freed = entry->second.bytes; // its compact form goes
  const std::size_t rendered_room = m_rendered_bytes < share ? share - m_rendered_bytes : 0;
  if (rendered > rendered_room) {
    if (m_recent_rendered.empty()) {
      return false;
    }
    const auto& victim = m_entries.find(m_recent_rendered.back())->second;
    const auto count = m_counts.find(symbol);
    const auto victim_count = m_counts.find(m_recent_rendered.back());
    if (count == m_counts.end()
        || count->second <= 2 * (victim_count == m_counts.end() ? 0 : victim_count->second)
        || rendered > rendered_room + victim.bytes) {
      return false;
    }
    freed += victim.bytes;
  }
  return m_bytes - freed + rendered <= m_budget; // never at the cost of other compact histories
}

std::size_t HistoryCache::bytes() const {
  std::lock_guard lock(m_mutex);
  return m_bytes;
}

void HistoryCache::erase(std::unordered_map<std::string, Entry>::iterator entry) {
  m_bytes -= entry->second.bytes;
  if (entry->second.history.rendered) {
    m_rendered_bytes -= entry->second.bytes;
    m_recent_rendered.erase(entry->second.rendered_position);
  }
  m_recent.erase(entry->second.position);
  m_entries.erase(entry);
}

} // namespace ashare::api
