// The key store in a PostgreSQL database (issue 14), shared by `serve` replicas on several hosts.
// A charge is one statement, atomic across processes and hosts, durable at commit; no credit is
// leased, so every X-Credits-Remaining is exact. Key changes bump a generation row and NOTIFY
// ashare_keys (store/postgres/schema.cpp).
#pragma once

#include "core/store/key_store.hpp"
#include "core/store/postgres/connection.hpp"

#include <string>

namespace ashare::store::postgres {

class PostgresKeyStore final : public KeyStore {
public:
  // Connect to `uri` and migrate its key tables. Throws StoreUnavailable when the server cannot
  // be reached.
  explicit PostgresKeyStore(const std::string& uri);

  std::int64_t insert_key(const NewKeyRecord& key) override;
  std::optional<KeyRecord> find_by_digest(const std::string& digest) override;
  std::vector<KeyRecord> find_by_prefix(const std::string& prefix) override;
  std::optional<KeyRecord> find_by_id(std::int64_t id) override;
  std::vector<KeyRecord> load_keys() override;
  bool revoke(std::int64_t id, const std::string& at) override;
  std::optional<std::int64_t> add_credits(std::int64_t id, std::int64_t credits) override;
  std::optional<std::int64_t> charge(std::int64_t id, std::int64_t cost) override;
  std::vector<ChargeResult> charge_batch(std::span<const ChargeRequest> requests) override;
  std::int64_t load_generation() override;
  std::optional<std::int64_t> load_balance(std::int64_t id) override;
  void insert_exact(std::span<const KeyRecord> keys) override;
  bool healthy() const override { return m_connection.healthy(); }

private:
  // Return the keys `sql` (a prepared statement `name` selecting k_key_columns) finds.
  std::vector<KeyRecord> select_keys(const char* name, const char* sql, std::initializer_list<Param> params);

  // Take `cost` from key `id` when it is metered, not revoked and has the credits; return the
  // credits left, or nullopt (nothing written). The one statement of charge and charge_one_key.
  std::optional<std::int64_t> take_credits(std::int64_t id, std::int64_t cost);

  // Apply `requests` when they charge one key that has the credits for all of them and is not
  // revoked; nullopt (nothing written) otherwise.
  std::optional<std::vector<ChargeResult>> charge_one_key(std::span<const ChargeRequest> requests);

  Connection m_connection;
};

} // namespace ashare::store::postgres
