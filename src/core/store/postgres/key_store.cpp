#include "core/store/postgres/key_store.hpp"

#include "core/store/postgres/schema.hpp"

namespace ashare::store::postgres {
namespace {

#define ASHARE_KEY_COLUMNS "id, prefix, label, plan, credits, created_at, revoked_at, digest"

KeyRecord read_key(const Result& result, int row) {
  KeyRecord key;
  key.id = result.int64(row, 0);
  key.prefix = std::string(result.text(row, 1));
  key.label = std::string(result.text(row, 2));
  key.plan = auth::parse_plan(std::string(result.text(row, 3))).value(); // CHECKed by schema
  key.credits = result.optional_int64(row, 4);
  key.created_at = std::string(result.text(row, 5));
  key.revoked_at = result.optional_text(row, 6);
  key.digest = result.bytes(row, 7);
  return key;
}

// One field of every request as a PostgreSQL array literal ("{1,2,3}").
std::string array_of(std::span<const ChargeRequest> requests, std::int64_t ChargeRequest::*field) {
  std::string out = "{";
  for (const auto& request : requests) {
    out += (out.size() > 1 ? "," : "") + std::to_string(request.*field);
  }
  return out + "}";
}

} // namespace

PostgresKeyStore::PostgresKeyStore(const std::string& uri) : m_connection(uri) {
  migrate(m_connection, SchemaKind::keys);
}

std::vector<KeyRecord> PostgresKeyStore::select_keys(const char* name,
                                                     const char* sql,
                                                     std::initializer_list<Param> params) {
  const auto result = m_connection.run(name, sql, params);
  std::vector<KeyRecord> keys;
  keys.reserve(static_cast<std::size_t>(result.rows()));
  for (int row = 0; row < result.rows(); ++row) {
    keys.push_back(read_key(result, row));
  }
  return keys;
}

std::int64_t PostgresKeyStore::insert_key(const NewKeyRecord& key) {
  const auto result = m_connection.exec(
    "INSERT INTO api_keys(prefix, digest, label, plan, credits, created_at) "
    "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    {key.prefix, Param::bytes(key.digest), key.label,
     std::string(auth::plan_limits(key.plan).name), key.credits, key.created_at});
  return result.int64(0, 0);
}

std::optional<KeyRecord> PostgresKeyStore::find_by_digest(const std::string& digest) {
  auto keys = select_keys("key_by_digest",
                          "SELECT " ASHARE_KEY_COLUMNS " FROM api_keys WHERE digest = $1",
                          {Param::bytes(digest)});
  if (keys.empty()) {
    return std::nullopt;
  }
  return std::move(keys.front());
}

std::vector<KeyRecord> PostgresKeyStore::find_by_prefix(const std::string& prefix) {
  return select_keys("keys_by_prefix",
                     "SELECT " ASHARE_KEY_COLUMNS " FROM api_keys WHERE prefix = $1 ORDER BY id",
                     {prefix});
}

std::optional<KeyRecord> PostgresKeyStore::find_by_id(std::int64_t id) {
  auto keys = select_keys("key_by_id", "SELECT " ASHARE_KEY_COLUMNS " FROM api_keys WHERE id = $1",
                          {id});
  if (keys.empty()) {
    return std::nullopt;
  }
  return std::move(keys.front());
}

std::vector<KeyRecord> PostgresKeyStore::load_keys() {
  return select_keys("all_keys", "SELECT " ASHARE_KEY_COLUMNS " FROM api_keys ORDER BY id", {});
}

bool PostgresKeyStore::revoke(std::int64_t id, const std::string& at) {
  return m_connection
           .exec("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
                 {id, at})
           .changed()
         > 0;
}

std::optional<std::int64_t> PostgresKeyStore::add_credits(std::int64_t id, std::int64_t credits) {
  const auto result = m_connection.exec("UPDATE api_keys SET credits = credits + $2 "
                                        "WHERE id = $1 AND credits IS NOT NULL RETURNING credits",
                                        {id, credits});
  if (result.rows() == 0) {
    return std::nullopt;
  }
  return result.int64(0, 0);
}

std::optional<std::int64_t> PostgresKeyStore::take_credits(std::int64_t id, std::int64_t cost) {
  // D7, re-checked on the locked row as every replica's charges are. An unmetered key (credits
  // NULL) is never charged here.
  const auto result = m_connection.run(
    "take_credits",
    "UPDATE api_keys SET credits = credits - $2 WHERE id = $1 AND credits IS NOT NULL "
    "AND credits >= $2 AND revoked_at IS NULL RETURNING credits",
    {id, cost});
  if (result.rows() == 0) {
    return std::nullopt;
  }
  return result.int64(0, 0);
}

std::optional<std::int64_t> PostgresKeyStore::charge(std::int64_t id, std::int64_t cost) {
  return take_credits(id, cost);
}

std::vector<ChargeResult> PostgresKeyStore::charge_batch(std::span<const ChargeRequest> requests) {
  if (auto results = charge_one_key(requests)) {
    return std::move(*results);
  }
  // One statement (api_keys_charge, store/postgres/schema.cpp): one round trip and one commit
  // for the whole batch, whatever its size.
  const auto rows = m_connection.run(
    "charge_batch", "SELECT charged, balance, revoked FROM api_keys_charge($1::bigint[], $2::bigint[])",
    {array_of(requests, &ChargeRequest::key_id), array_of(requests, &ChargeRequest::cost)});
  if (rows.rows() != static_cast<int>(requests.size())) {
    throw std::runtime_error("api_keys_charge returned " + std::to_string(rows.rows())
                             + " results for " + std::to_string(requests.size()) + " charges");
  }
  std::vector<ChargeResult> results(requests.size());
  for (int row = 0; row < rows.rows(); ++row) {
    auto& result = results[static_cast<std::size_t>(row)];
    result.charged = rows.text(row, 0) == "t";
    result.balance = rows.optional_int64(row, 1);
    result.revoked = rows.text(row, 2) == "t";
  }
  return results;
}

std::optional<std::vector<ChargeResult>>
PostgresKeyStore::charge_one_key(std::span<const ChargeRequest> requests) {
  // Issue 35: a batch nearly always names one key, and that key nearly always has the credits
  // for all of it. Then every charge succeeds in turn (D7: each partial sum is at most the
  // total), so a single charge's UPDATE takes the total. It returns the credits left, from which
  // charge_credits() gives each result in order, without api_keys_charge's locking read and
  // PL/pgSQL loop (0.12 against 0.14 ms a call in pgbench, and the row locked for less of it).
  // Otherwise nothing was written and the function decides charge by charge.
  if (requests.empty()) {
    return std::nullopt;
  }
  const std::int64_t id = requests.front().key_id;
  std::int64_t total = 0;
  for (const auto& request : requests) {
    if (request.key_id != id || request.cost < 0) {
      return std::nullopt;
    }
    total += request.cost;
  }
  const auto left = take_credits(id, total);
  if (!left) {
    return std::nullopt;
  }
  std::optional<KeyCredits> key = KeyCredits{*left + total, false};
  std::vector<ChargeResult> results;
  results.reserve(requests.size());
  for (const auto& request : requests) {
    results.push_back(charge_credits(key, request.cost));
  }
  return results;
}

std::int64_t PostgresKeyStore::load_generation() {
  const auto result = m_connection.run(
    "keys_generation", "SELECT value FROM api_keys_meta WHERE key = 'generation'", {});
  return result.rows() == 1 ? result.int64(0, 0) : 0;
}

std::optional<std::int64_t> PostgresKeyStore::load_balance(std::int64_t id) {
  const auto result =
    m_connection.run("key_balance", "SELECT credits FROM api_keys WHERE id = $1", {id});
  if (result.rows() == 0) {
    return std::nullopt;
  }
  return result.optional_int64(0, 0);
}

void PostgresKeyStore::insert_exact(std::span<const KeyRecord> keys) {
  Transaction transaction(m_connection);
  // No key may appear meanwhile: the emptiness checked is the emptiness written into.
  m_connection.exec("LOCK TABLE api_keys IN EXCLUSIVE MODE");
  if (m_connection.exec("SELECT count(*) FROM api_keys").int64(0, 0) != 0) {
    throw std::runtime_error("the key store already holds keys");
  }
  for (const auto& key : keys) {
    m_connection.run("insert_exact",
                     "INSERT INTO api_keys(id, prefix, digest, label, plan, credits, created_at, "
                     "revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                     {key.id, key.prefix, Param::bytes(key.digest), key.label,
                      std::string(auth::plan_limits(key.plan).name), key.credits, key.created_at,
                      key.revoked_at});
  }
  // The identity goes on after the largest copied id, as SQLite's rowid does.
  m_connection.exec("SELECT setval(pg_get_serial_sequence('api_keys', 'id'), "
                    "coalesce(max(id), 0) + 1, false) FROM api_keys");
  transaction.commit();
}

} // namespace ashare::store::postgres
