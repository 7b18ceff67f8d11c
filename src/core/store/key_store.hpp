// The key store: API keys (as SHA-256 digests, never plaintext), their plans and credit balances,
// in a SQLite file of its own. Credits are charged by one conditional UPDATE, so concurrent
// requests, in one process or several, never spend more than the balance. Creating or revoking a
// key bumps the store's generation and its change counter, so servers drop what they cached.
#pragma once

#include "core/auth/plan.hpp"
#include "core/store/change_counter.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>
#include <SQLiteCpp/Database.h>

namespace ashare::store {

struct KeyRecord {
  std::int64_t id = 0;
  std::string prefix;
  std::string digest; // SHA-256 of the plaintext
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

// One request's charge: take `cost` credits from key `key_id` (cost 0: only read its balance).
struct ChargeRequest {
  std::int64_t key_id = 0;
  std::int64_t cost = 0;
};

struct ChargeResult {
  bool charged = false;                // the cost was taken (cost 0: the key is metered and usable)
  std::optional<std::int64_t> balance; // after the charge, or now when refused; nullopt: unmetered
                                       // or unknown key
  bool revoked = false;                // refused because the key is revoked
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

  // Return the keys whose public prefix is `prefix` (auth::key_lookup_prefix), revoked or not,
  // by id: what a server looks a presented key up by before comparing digests (issue 13).
  std::vector<KeyRecord> find_by_prefix(const std::string& prefix);

  // Return the key with id `id`, or nullopt.
  std::optional<KeyRecord> find_by_id(std::int64_t id);

  // Return every key, ordered by id.
  std::vector<KeyRecord> load_keys();

  // Mark key `id` revoked at `at` unless it already is; return whether a key changed.
  bool revoke(std::int64_t id, const std::string& at);

  // Add `credits` to metered key `id`; return the new balance, or nullopt when `id` is unmetered
  // or unknown.
  std::optional<std::int64_t> add_credits(std::int64_t id, std::int64_t credits);

  // Take `cost` credits from metered key `id`, unless it is revoked, in one conditional update;
  // return the balance after the charge, or nullopt when the balance is below `cost` or the key
  // is revoked (nothing is charged then).
  std::optional<std::int64_t> charge(std::int64_t id, std::int64_t cost);

  // Apply `requests` in order in one IMMEDIATE write transaction (waiting for SQLite's write
  // lock): each charge decided and applied by one conditional update (D7), the whole batch
  // committed once, so that a server pays one commit for many requests. Returns one result per
  // request, in order.
  std::vector<ChargeResult> charge_batch(std::span<const ChargeRequest> requests);

  // Return the generation of the keys: it changes whenever a key is created, deleted, revoked,
  // given another plan or made metered or unmetered (never on a charge or credit).
  std::int64_t load_generation();

  // Return the balance of key `id` (nullopt when unmetered or unknown).
  std::optional<std::int64_t> load_balance(std::int64_t id);

private:
  SQLite::Database m_db;
  struct Statements;
  std::unique_ptr<Statements> m_statements;
  std::unique_ptr<ChangeCounter> m_changes; // bumped when a key is created or revoked
};

} // namespace ashare::store
