// What a server remembers of API keys between requests (issue 9): for each public key prefix
// asked for, every stored key of it with its id, plan, metered, revoked and digest; never the
// balance, which only the charge statement decides (D7). A presented key's digest is compared
// with those in constant time (issue 13). The memory is valid for one keys generation
// (store/key_store.hpp): creating or revoking a key anywhere drops it, seen through the key
// store's change counter without a SQLite read per request. Only prefixes of stored keys are
// remembered, so requests with random keys cannot grow it.
#pragma once

#include "core/api/caller.hpp"
#include "core/store/change_counter.hpp"
#include "core/store/key_store.hpp"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ashare::api {

class KeyCache {
public:
  using Clock = std::chrono::steady_clock;

  // Watch `changes`, the key store's change counter (nullptr: find_fresh() always misses).
  explicit KeyCache(const store::ChangeCounter* changes = nullptr) : m_changes(changes) {}

  // What find_fresh() knows of a credential.
  struct Lookup {
    bool known = false;          // false: ask find() (a new prefix, or the memory may be stale)
    std::optional<KeyEntry> key; // when known; nullopt: no stored key has this digest
  };

  // Return the key of `credential` from memory when the memory is known current at `now` (the
  // counter has not moved since the last find(), under k_recheck_interval ago) and holds its
  // prefix. Never touches the store.
  Lookup find_fresh(const Credential& credential, Clock::time_point now);

  // Return the key of `credential` (nullopt: no such key), reading `keys`: its generation first
  // (the memory is dropped when it changed), then the keys of its prefix when not remembered.
  std::optional<KeyEntry> find(const Credential& credential,
                               store::KeyStore& keys,
                               Clock::time_point now = Clock::now());

  // Return what the memory holds of `credential` however old it is: a key already known keeps
  // being answered while the key store cannot be reached (D15; a metered one is then refused
  // by its charge, which needs the store). Never touches the store.
  Lookup find_remembered(const Credential& credential);

private:
  const store::ChangeCounter* m_changes;
  std::mutex m_mutex;
  std::int64_t m_generation = -1;
  store::LastCheck m_checked; // of m_generation
  std::unordered_map<std::string, std::vector<KeyEntry>> m_keys; // by public prefix
};

} // namespace ashare::api
