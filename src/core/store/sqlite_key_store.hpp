// The key store in a SQLite file of its own (store/key_store.hpp), so that a long import holding
// the data store's write lock never stalls a credit charge. Creating or revoking a key also bumps
// the file's change counter (store/change_counter.hpp), so servers sharing it see it at once.
#pragma once

#include "core/store/change_counter.hpp"
#include "core/store/key_store.hpp"

#include <filesystem>
#include <memory>
#include <SQLiteCpp/Database.h>

namespace ashare::store {

class SqliteKeyStore final : public KeyStore {
public:
  // Open (and create or migrate) the key store at `path`.
  explicit SqliteKeyStore(const std::filesystem::path& path);
  ~SqliteKeyStore() override;
  SqliteKeyStore(const SqliteKeyStore&) = delete;
  SqliteKeyStore& operator=(const SqliteKeyStore&) = delete;

  std::int64_t insert_key(const NewKeyRecord& key) override;
  std::optional<KeyRecord> find_by_digest(const std::string& digest) override;
  std::vector<KeyRecord> find_by_prefix(const std::string& prefix) override;
  std::optional<KeyRecord> find_by_id(std::int64_t id) override;
  std::vector<KeyRecord> load_keys() override;
  bool revoke(std::int64_t id, const std::string& at) override;
  std::optional<std::int64_t> add_credits(std::int64_t id, std::int64_t credits) override;
  std::optional<std::int64_t> charge(std::int64_t id, std::int64_t cost) override;
  // One IMMEDIATE transaction (waiting for SQLite's write lock).
  std::vector<ChargeResult> charge_batch(std::span<const ChargeRequest> requests) override;
  std::int64_t load_generation() override;
  std::optional<std::int64_t> load_balance(std::int64_t id) override;
  void insert_exact(std::span<const KeyRecord> keys) override;

private:
  // Return the credits of key `id` as they are now; nullopt when there is no such key.
  std::optional<KeyCredits> load_credits(std::int64_t id);

  SQLite::Database m_db;
  struct Statements;
  std::unique_ptr<Statements> m_statements;
  std::unique_ptr<ChangeCounter> m_changes; // bumped when a key is created or revoked
};

} // namespace ashare::store
