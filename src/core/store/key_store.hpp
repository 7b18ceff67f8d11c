// The key store: API keys (as SHA-256 digests, never plaintext), their plans and credit balances,
// in a SQLite file of its own or in a PostgreSQL database (issue 14). Credits are charged by one
// conditional UPDATE, so concurrent requests, in one process or several, on one host or several,
// never spend more than the balance. Creating or revoking a key bumps the store's generation, so
// servers drop what they cached.
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

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

// A key's credits as a batch of charges reads them: once, under the store's write lock.
struct KeyCredits {
  std::optional<std::int64_t> credits; // nullopt: unmetered
  bool revoked = false;
};

// D7: return the result of charging `cost` (0: only read the balance) to `key` (nullopt: no such
// key), taking the cost from key->credits when it is charged: the rule of every charge, applied
// in a batch's order to the key as the charges before it left it.
ChargeResult charge_credits(std::optional<KeyCredits>& key, std::int64_t cost);

// The key store's operations; a SQLite file (store/sqlite_key_store.hpp) or a PostgreSQL
// database (store/postgres/key_store.hpp) behind it, chosen by open_key_store().
class KeyStore {
public:
  virtual ~KeyStore() = default;

  // Insert `key` and return its id.
  virtual std::int64_t insert_key(const NewKeyRecord& key) = 0;

  // Return the key whose digest is `digest`, revoked or not, or nullopt.
  virtual std::optional<KeyRecord> find_by_digest(const std::string& digest) = 0;

  // Return the keys whose public prefix is `prefix` (auth::key_lookup_prefix), revoked or not,
  // by id: what a server looks a presented key up by before comparing digests (issue 13).
  virtual std::vector<KeyRecord> find_by_prefix(const std::string& prefix) = 0;

  // Return the key with id `id`, or nullopt.
  virtual std::optional<KeyRecord> find_by_id(std::int64_t id) = 0;

  // Return every key, ordered by id.
  virtual std::vector<KeyRecord> load_keys() = 0;

  // Mark key `id` revoked at `at` unless it already is; return whether a key changed.
  virtual bool revoke(std::int64_t id, const std::string& at) = 0;

  // Add `credits` to metered key `id`; return the new balance, or nullopt when `id` is unmetered
  // or unknown.
  virtual std::optional<std::int64_t> add_credits(std::int64_t id, std::int64_t credits) = 0;

  // Take `cost` credits from metered key `id`, unless it is revoked, in one conditional update;
  // return the balance after the charge, or nullopt when the balance is below `cost` or the key
  // is revoked (nothing is charged then).
  virtual std::optional<std::int64_t> charge(std::int64_t id, std::int64_t cost) = 0;

  // Apply `requests` in order in one write transaction (D7: charge_credits() decides each), the
  // whole batch committed once, so that a server pays one commit for many requests. Returns one
  // result per request, in order.
  virtual std::vector<ChargeResult> charge_batch(std::span<const ChargeRequest> requests) = 0;

  // Return the generation of the keys: it changes whenever a key is created, deleted, revoked,
  // given another plan or made metered or unmetered (never on a charge or credit).
  virtual std::int64_t load_generation() = 0;

  // Return the balance of key `id` (nullopt when unmetered or unknown).
  virtual std::optional<std::int64_t> load_balance(std::int64_t id) = 0;

  // Insert `keys` as they are (ids, digests, plans, balances, creation and revocation times) in
  // one transaction, into a key store that holds none: what copy_keys() writes. Throws, writing
  // nothing, when the store already holds a key; later keys get ids above the largest copied.
  virtual void insert_exact(std::span<const KeyRecord> keys) = 0;

  // Return whether this connection still works (false once a database server went away: a pool
  // then drops it rather than lend it again).
  virtual bool healthy() const { return true; }
};

// Open (and create or migrate) the key store at `locator`: a postgresql:// URI or a SQLite file
// path (store/locator.hpp). Throws StoreUnavailable when a database server cannot be reached.
std::unique_ptr<KeyStore> open_key_store(const std::string& locator);

// What copy_keys() copied.
struct KeyCopy {
  std::size_t keys = 0;
  std::size_t metered = 0;
  std::size_t revoked = 0;
};

// Copy every key of `from` into `to` exactly (issue 14: moving to another backend without
// re-issuing keys), all or nothing; an INVALID_INPUT error when `to` already holds keys.
Result<KeyCopy> copy_keys(KeyStore& from, KeyStore& to);

} // namespace ashare::store
