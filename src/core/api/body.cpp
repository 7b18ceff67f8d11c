#include "core/api/body.hpp"

#include <cassert>

namespace ashare::api {

void Body::splice(std::string_view piece, std::shared_ptr<const void> owner) {
  assert(owner != nullptr);
  if (piece.empty()) {
    return;
  }
  m_splices.push_back(Splice{m_text.size(), piece});
  m_spliced_bytes += piece.size();
  // The pieces of one answer mostly live in one or two renderings: keep each owner once in a row.
  if (m_owners.empty() || m_owners.back() != owner) {
    m_owners.push_back(std::move(owner));
  }
}

std::string_view Body::prefix() const {
  return m_splices.empty() ? std::string_view(m_text)
                           : std::string_view(m_text).substr(0, m_splices.front().at);
}

std::size_t Body::piece_count() const {
  std::size_t count = 0;
  for_each_piece([&count](std::string_view) { ++count; });
  return count;
}

std::string Body::str() const {
  std::string out;
  out.reserve(size());
  for_each_piece([&out](std::string_view piece) { out.append(piece); });
  return out;
}

void Body::clear() {
  std::string().swap(m_text); // an idle connection keeps no response in memory
  m_splices.clear();
  m_owners.clear();
  m_spliced_bytes = 0;
}

} // namespace ashare::api
