#include "server/gzip_cache.hpp"

namespace ashare::server {

api::Body
GzipCache::compress(const api::Body& body, std::string_view etag, std::string_view request_id) {
  // The request id is written near the start, before any spliced piece (api/json).
  const auto prefix = body.prefix();
  const auto at = request_id.empty() ? std::string_view::npos : prefix.find(request_id);
  if (etag.empty() || at == std::string_view::npos) {
    return api::Body(gzip(body.str()));
  }
  const auto split = at + request_id.size();
  return gzip_spliced(prefix.substr(0, split), tail_of(etag, body, split));
}

std::shared_ptr<const DeflatedTail>
GzipCache::tail_of(std::string_view etag, const api::Body& body, std::size_t split) {
  const auto tail_size = body.size() - split;
  if (const auto found = m_by_etag.find(etag); found != m_by_etag.end()) {
    // The size is a cheap guard: one ETag names one answer, so its tail never differs.
    if (found->second->tail->size == tail_size) {
      m_entries.splice(m_entries.begin(), m_entries, found->second);
      return found->second->tail;
    }
    m_held -= found->second->tail->deflated.size();
    m_entries.erase(found->second);
    m_by_etag.erase(found);
  }
  auto tail = std::make_shared<const DeflatedTail>(
      deflate_tail(std::string_view(body.str()).substr(split)));
  m_entries.push_front(Entry{std::string(etag), tail});
  m_by_etag.emplace(m_entries.front().etag, m_entries.begin());
  m_held += tail->deflated.size();
  // Evict from the back, never the entry just made (a tail larger than the budget is still
  // returned, then dropped by the next insertion). A body being sent keeps its own reference.
  while (m_held > m_budget && m_entries.size() > 1) {
    auto& last = m_entries.back();
    m_held -= last.tail->deflated.size();
    m_by_etag.erase(last.etag);
    m_entries.pop_back();
  }
  return tail;
}

} // namespace ashare::server
