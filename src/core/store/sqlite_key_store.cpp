#include "core/store/sqlite_key_store.hpp"

#include "core/store/schema.hpp"

#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <algorithm>

namespace ashare::store {
namespace {

constexpr const char* k_key_columns =
    "id, prefix, label, plan, credits, created_at, revoked_at, digest";

KeyRecord read_key(SQLite::Statement& statement) {
  KeyRecord key;
  key.id = statement.getColumn(0).getInt64();
  key.prefix = statement.getColumn(1).getString();
  key.label = statement.getColumn(2).getString();
  key.plan = auth::parse_plan(statement.getColumn(3).getString()).value(); // CHECKed by schema
  if (!statement.getColumn(4).isNull()) {
    key.credits = statement.getColumn(4).getInt64();
  }
  key.created_at = statement.getColumn(5).getString();
  if (!statement.getColumn(6).isNull()) {
    key.revoked_at = statement.getColumn(6).getString();
  }
  const auto digest = statement.getColumn(7);
  key.digest.assign(static_cast<const char*>(digest.getBlob()),
                    static_cast<std::size_t>(digest.getBytes()));
  return key;
}

std::string select_keys(const char* where) {
  return std::string("SELECT ") + k_key_columns + " FROM api_keys " + where;
}

} // namespace

struct SqliteKeyStore::Statements {
  explicit Statements(SQLite::Database& db)
      : by_digest(db, select_keys("WHERE digest = ?1")),
        by_prefix(db, select_keys("WHERE prefix = ?1 ORDER BY id")),
        charge(db,
               "UPDATE api_keys SET credits = credits - ?2 WHERE id = ?1 "
               "AND credits IS NOT NULL AND credits >= ?2 AND revoked_at IS NULL "
               "RETURNING credits"),
        balance(db, "SELECT credits FROM api_keys WHERE id = ?1"),
        state(db, "SELECT credits, revoked_at FROM api_keys WHERE id = ?1"),
        take(db, "UPDATE api_keys SET credits = credits - ?2 WHERE id = ?1"),
        generation(db, "SELECT value FROM meta WHERE key = 'generation'") {}

  SQLite::Statement by_digest;
  SQLite::Statement by_prefix;
  SQLite::Statement charge;
  SQLite::Statement balance;
  SQLite::Statement state;
  SQLite::Statement take; // what a batch charged a key, decided beforehand (charge_batch)
  SQLite::Statement generation;
};

SqliteKeyStore::SqliteKeyStore(const std::filesystem::path& path)
    : m_db(open_database(path, StoreKind::keys)), m_statements(std::make_unique<Statements>(m_db)) {
}

SqliteKeyStore::~SqliteKeyStore() = default;

std::int64_t SqliteKeyStore::insert_key(const NewKeyRecord& key) {
  SQLite::Statement statement(
      m_db, "INSERT INTO api_keys(prefix, digest, label, plan, credits, created_at) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  statement.bind(1, key.prefix);
  statement.bind(2, key.digest.data(), static_cast<int>(key.digest.size()));
  statement.bind(3, key.label);
  statement.bind(4, std::string(auth::plan_limits(key.plan).name));
  if (key.credits) {
    statement.bind(5, static_cast<std::int64_t>(*key.credits));
  } else {
    statement.bind(5);
  }
  statement.bind(6, key.created_at);
  statement.exec();
  const std::int64_t id = m_db.getLastInsertRowid();
  store::announce_change(m_db, m_changes);
  return id;
}

std::optional<KeyRecord> SqliteKeyStore::find_by_digest(const std::string& digest) {
  auto& statement = m_statements->by_digest;
  statement.reset();
  statement.bindNoCopy(1, digest.data(), static_cast<int>(digest.size()));
  std::optional<KeyRecord> key;
  if (statement.executeStep()) {
    key = read_key(statement);
  }
  statement.reset();
  return key;
}

std::vector<KeyRecord> SqliteKeyStore::find_by_prefix(const std::string& prefix) {
  auto& statement = m_statements->by_prefix;
  statement.reset();
  statement.bindNoCopy(1, prefix);
  std::vector<KeyRecord> keys;
  while (statement.executeStep()) {
    keys.push_back(read_key(statement));
  }
  statement.reset();
  return keys;
}

std::optional<KeyRecord> SqliteKeyStore::find_by_id(std::int64_t id) {
  SQLite::Statement statement(m_db, select_keys("WHERE id = ?1"));
  statement.bind(1, static_cast<std::int64_t>(id));
  if (!statement.executeStep()) {
    return std::nullopt;
  }
  return read_key(statement);
}

std::vector<KeyRecord> SqliteKeyStore::load_keys() {
  SQLite::Statement statement(m_db, select_keys("ORDER BY id"));
  std::vector<KeyRecord> keys;
  while (statement.executeStep()) {
    keys.push_back(read_key(statement));
  }
  return keys;
}

bool SqliteKeyStore::revoke(std::int64_t id, const std::string& at) {
  SQLite::Statement statement(
      m_db, "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL");
  statement.bind(1, static_cast<std::int64_t>(id));
  statement.bind(2, at);
  const bool changed = statement.exec() > 0;
  if (changed) {
    store::announce_change(m_db, m_changes);
  }
  return changed;
}

std::optional<std::int64_t> SqliteKeyStore::add_credits(std::int64_t id, std::int64_t credits) {
  SQLite::Statement statement(m_db, "UPDATE api_keys SET credits = credits + ?2 "
                                    "WHERE id = ?1 AND credits IS NOT NULL RETURNING credits");
  statement.bind(1, static_cast<std::int64_t>(id));
  statement.bind(2, static_cast<std::int64_t>(credits));
  if (!statement.executeStep()) {
    return std::nullopt;
  }
  return statement.getColumn(0).getInt64();
}

std::optional<std::int64_t> SqliteKeyStore::charge(std::int64_t id, std::int64_t cost) {
  // D7: one statement decides and applies the charge under SQLite's write lock; a read followed
  // by a write could let two requests spend the same credit.
  auto& statement = m_statements->charge;
  statement.reset();
  statement.bind(1, static_cast<std::int64_t>(id));
  statement.bind(2, static_cast<std::int64_t>(cost));
  std::optional<std::int64_t> balance;
  if (statement.executeStep()) {
    balance = statement.getColumn(0).getInt64();
  }
  statement.reset(); // ends the statement, and so its write transaction
  return balance;
}

std::vector<ChargeResult> SqliteKeyStore::charge_batch(std::span<const ChargeRequest> requests) {
  // D7, issue 35: each key's row is read once and written once per batch, its charges decided
  // in order in memory (charge_credits) while the transaction holds the write lock: the results
  // of a conditional update per charge, for two statements per key instead of one per charge.
  struct Key {
    std::int64_t id = 0;
    std::optional<KeyCredits> credits;
    std::int64_t charged = 0; // taken in this batch
  };
  std::vector<Key> keys; // a batch names few keys: mostly one
  std::vector<ChargeResult> results;
  results.reserve(requests.size());
  SQLite::Transaction transaction(m_db, SQLite::TransactionBehavior::IMMEDIATE);
  for (const auto& request : requests) {
    auto key = std::find_if(keys.begin(), keys.end(),
                            [&](const Key& each) { return each.id == request.key_id; });
    if (key == keys.end()) {
      keys.push_back(Key{request.key_id, load_credits(request.key_id), 0});
      key = keys.end() - 1;
    }
    results.push_back(charge_credits(key->credits, request.cost));
    if (results.back().charged) {
      key->charged += request.cost;
    }
  }
  auto& take = m_statements->take;
  for (const auto& key : keys) {
    if (key.charged > 0) {
      take.reset();
      take.bind(1, key.id);
      take.bind(2, key.charged);
      take.exec();
    }
  }
  transaction.commit();
  return results;
}

std::optional<KeyCredits> SqliteKeyStore::load_credits(std::int64_t id) {
  auto& state = m_statements->state;
  state.reset();
  state.bind(1, id);
  std::optional<KeyCredits> key;
  if (state.executeStep()) {
    key = KeyCredits{state.getColumn(0).isNull()
                         ? std::nullopt
                         : std::optional<std::int64_t>(state.getColumn(0).getInt64()),
                     !state.getColumn(1).isNull()};
  }
  state.reset();
  return key;
}

std::int64_t SqliteKeyStore::load_generation() {
  auto& statement = m_statements->generation;
  statement.reset();
  const std::int64_t generation =
      statement.executeStep() ? std::stoll(statement.getColumn(0).getString()) : 0;
  statement.reset();
  return generation;
}

std::optional<std::int64_t> SqliteKeyStore::load_balance(std::int64_t id) {
  auto& statement = m_statements->balance;
  statement.reset();
  statement.bind(1, static_cast<std::int64_t>(id));
  std::optional<std::int64_t> balance;
  if (statement.executeStep() && !statement.getColumn(0).isNull()) {
    balance = statement.getColumn(0).getInt64();
  }
  statement.reset();
  return balance;
}

void SqliteKeyStore::insert_exact(std::span<const KeyRecord> keys) {
  SQLite::Transaction transaction(m_db, SQLite::TransactionBehavior::IMMEDIATE);
  if (m_db.execAndGet("SELECT count(*) FROM api_keys").getInt64() != 0) {
    throw std::runtime_error("the key store already holds keys");
  }
  SQLite::Statement insert(m_db, "INSERT INTO api_keys(id, prefix, digest, label, plan, credits, "
                                 "created_at, revoked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (const auto& key : keys) {
    insert.reset();
    insert.bind(1, static_cast<std::int64_t>(key.id));
    insert.bind(2, key.prefix);
    insert.bind(3, key.digest.data(), static_cast<int>(key.digest.size()));
    insert.bind(4, key.label);
    insert.bind(5, std::string(auth::plan_limits(key.plan).name));
    if (key.credits) {
      insert.bind(6, static_cast<std::int64_t>(*key.credits));
    } else {
      insert.bind(6);
    }
    insert.bind(7, key.created_at);
    if (key.revoked_at) {
      insert.bind(8, *key.revoked_at);
    } else {
      insert.bind(8);
    }
    insert.exec();
  }
  transaction.commit();
  store::announce_change(m_db, m_changes);
}

} // namespace ashare::store
