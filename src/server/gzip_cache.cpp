#include "server/gzip_cache.hpp"

namespace ashare::server {

std::string GzipCache::compress(std::string_view body,
                                std::string_view etag,
                                std::string_view request_id) {
  const auto at = request_id.empty() ? std::string_view::npos : body.find(request_id);
  if (etag.empty() || at == std::string_view::npos) {
    return gzip(body);
  }
  const auto split = at + request_id.size();
  return gzip_spliced(body.substr(0, split), tail_of(etag, body.substr(split)));
}

const DeflatedTail& GzipCache::tail_of(std::string_view etag, std::string_view tail) {
  if (const auto found = m_by_etag.find(etag); found != m_by_etag.end()) {
    // The size is a cheap guard: one ETag names one answer, so its tail never differs.
    if (found->second->tail.size == tail.size()) {
      m_entries.splice(m_entries.begin(), m_entries, found->second);
      return found->second->tail;
    }
    m_held -= found->second->tail.deflated.size();
    m_entries.erase(found->second);
    m_by_etag.erase(found);
  }
  m_entries.push_front(Entry{std::string(etag), deflate_tail(tail)});
  m_by_etag.emplace(m_entries.front().etag, m_entries.begin());
  m_held += m_entries.front().tail.deflated.size();
  // Evict from the back, never the entry just made (a tail larger than the budget is still
  // returned, then dropped by the next insertion).
  while (m_held > m_budget && m_entries.size() > 1) {
    auto& last = m_entries.back();
    m_held -= last.tail.deflated.size();
    m_by_etag.erase(last.etag);
    m_entries.pop_back();
  }
  return m_entries.front().tail;
}

} // namespace ashare::server
