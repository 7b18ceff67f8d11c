#include "core/api/key_cache.hpp"

namespace ashare::api {

KeyCache::Lookup KeyCache::find_fresh(const Credential& credential, Clock::time_point now) {
  const auto counter = m_changes != nullptr ? m_changes->load() : std::nullopt;
  std::lock_guard lock(m_mutex);
  if (!m_checked.holds(counter, now)) {
    return {};
  }
  const auto it = m_keys.find(credential.prefix);
  if (it == m_keys.end()) {
    return {};
  }
  return Lookup{true, match_key(it->second, credential.digest)};
}

KeyCache::Lookup KeyCache::find_remembered(const Credential& credential) {
  std::lock_guard lock(m_mutex);
  const auto it = m_keys.find(credential.prefix);
  if (it == m_keys.end()) {
    return {};
  }
  return Lookup{true, match_key(it->second, credential.digest)};
}

std::optional<KeyEntry> KeyCache::find(const Credential& credential,
                                       store::KeyStore& keys,
                                       Clock::time_point now) {
  // The counter before the generation: a change announced after this read is seen next time.
  const auto counter = m_changes != nullptr ? m_changes->load() : std::nullopt;
  const std::int64_t generation = keys.load_generation();
  {
    std::lock_guard lock(m_mutex);
    if (generation > m_generation) {
      m_keys.clear();
      m_generation = generation;
    }
    if (generation == m_generation) { // else another thread has read a newer one: leave it be
      m_checked = store::LastCheck{counter, now};
      if (const auto it = m_keys.find(credential.prefix); it != m_keys.end()) {
        return match_key(it->second, credential.digest);
      }
    }
  }
  std::vector<KeyEntry> entries;
  for (const auto& record : keys.find_by_prefix(credential.prefix)) {
    entries.push_back(key_entry(record));
  }
  if (entries.empty()) {
    return std::nullopt; // not remembered: random keys must not grow the memory
  }
  auto found = match_key(entries, credential.digest);
  std::lock_guard lock(m_mutex);
  if (generation == m_generation) { // else a newer generation came meanwhile: do not mix
    m_keys.emplace(credential.prefix, std::move(entries));
  }
  return found;
}

} // namespace ashare::api
