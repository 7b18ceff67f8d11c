// Compressed answers kept by ETag (D17): an answer with a given ETag is the same bytes whatever
// the request but for its request id, which comes first in a bars or indicator body. So the
// bytes after the request id are deflated once and kept, and each response is the request's
// own head (stored, not compressed) spliced before them: compressing a one-year answer (48 KB)
// costs about 1.4 ms at zlib's default level, splicing it about 1 us (bench/bench_gzip.cpp).
#pragma once

#include "server/gzip.hpp"

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ashare::server {

// Holds at most `budget_bytes` of compressed tails, dropping the least recently used first.
// Not thread-safe: one per network thread.
class GzipCache {
public:
  explicit GzipCache(std::size_t budget_bytes) : m_budget(budget_bytes) {}

  // Return `body` gzip-compressed. When `etag` is set and `request_id` occurs in the body's
  // prefix (its bytes before any spliced piece), the bytes after its first occurrence are deflated
  // once per `etag` and kept (the answers of one ETag differ in their request ids alone), and the
  // result refers to them (gzip_spliced); otherwise the whole body is compressed.
  api::Body compress(const api::Body& body, std::string_view etag, std::string_view request_id);

  // Return the bytes of compressed tails held (for tests).
  std::size_t held_bytes() const { return m_held; }

private:
  struct Entry {
    std::string etag;
    std::shared_ptr<const DeflatedTail> tail; // shared with the bodies in flight that send it
  };

  // Return the deflated tail of `etag`: the bytes of `body` from `split` on, deflated when no
  // tail of their size is kept.
  std::shared_ptr<const DeflatedTail>
  tail_of(std::string_view etag, const api::Body& body, std::size_t split);

  std::size_t m_budget;
  std::size_t m_held = 0;
  std::list<Entry> m_entries; // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> m_by_etag; // views into m_entries
};

} // namespace ashare::server
