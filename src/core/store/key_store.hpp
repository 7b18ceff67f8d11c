// The key store: API keys (as SHA-256 digests, never plaintext), their plans and credit balances,
// in a SQLite file of its own. Credits are charged by one conditional UPDATE, so concurrent
// requests, in one process or several, never spend more than the balance.
#pragma once

#include "core/auth/plan.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <SQLiteCpp/Database.h>

namespace ashare::store {

struct KeyRecord {
  std::int64_t id = 0;
  std::string prefix;
  std::string label;
  auth::Plan plan = auth::Plan::free;
  std::optional<std::int64_t> credits; // nullopt: unmetered
  std::string created_at;              // UTC, ISO 8601
  std::optional<std::string> revoked_at;
};

struct NewKeyRecord {
  std::string prefix;
  std::string digest; // SHA-256 of the plaintext
  std::string label;
  auth::Plan plan = auth::Plan::free;
  std::optional<std::int64_t> credits;
  std::string created_at;
};

class KeyStore {
public:
  // Open (and create or migrate) the key store at `path`.
  explicit KeyStore(const std::filesystem::path& path);
  ~KeyStore();
  KeyStore(const KeyStore&) = delete;
  KeyStore& operator=(const KeyStore&) = delete;

  // Insert `key` and return its id.
  std::int64_t insert_key(const NewKeyRecord& key);

  // Return the key whose digest is `digest`, revoked or not, or nullopt.
  std::optional<KeyRecord> find_by_digest(const std::string& digest);

  // Return the key with id `id`, or nullopt.
  std::optional<KeyRecord> find_by_id(std::int64_t id);

  // Return every key, ordered by id.
  std::vector<KeyRecord> load_keys();

  // Mark key `id` revoked at `at` unless it already is; return whether a key changed.
  bool revoke(std::int64_t id, const std::string& at);

  // Add `credits` to metered key `id`; return the new balance, or nullopt when `id` is unmetered
  // or unknown.
  std::optional<std::int64_t> add_credits(std::int64_t id, std::int64_t credits);

  // Take `cost` credits from metered key `id` in one conditional update; return the balance after
  // the charge, or nullopt when the balance is below `cost` (nothing is charged then).
  std::optional<std::int64_t> charge(std::int64_t id, std::int64_t cost);

  // Return the balance of key `id` (nullopt when unmetered or unknown).
  std::optional<std::int64_t> load_balance(std::int64_t id);

private:
  SQLite::Database m_db;
  struct Statements;
  std::unique_ptr<Statements> m_statements;
};

} // namespace ashare::store
