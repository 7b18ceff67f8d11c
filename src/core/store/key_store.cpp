#include "core/store/key_store.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/key_store.hpp"
#include "core/store/sqlite_key_store.hpp"

namespace ashare::store {

Result<KeyCopy> copy_keys(KeyStore& from, KeyStore& to) {
  const auto keys = from.load_keys();
  if (const auto there = to.load_keys(); !there.empty()) {
    return Error{ErrorCode::invalid_input,
                 "the destination already holds " + std::to_string(there.size())
                   + (there.size() == 1 ? " key" : " keys")
                   + ": copy into an empty key store, so that ids and balances stay exact"};
  }
  to.insert_exact(keys);
  KeyCopy copied;
  copied.keys = keys.size();
  for (const auto& key : keys) {
    copied.metered += key.credits ? 1 : 0;
    copied.revoked += key.revoked_at ? 1 : 0;
  }
  return copied;
}

std::unique_ptr<KeyStore> open_key_store(const std::string& locator) {
  if (is_postgres_locator(locator)) {
    return std::make_unique<postgres::PostgresKeyStore>(locator);
  }
  return std::make_unique<SqliteKeyStore>(locator);
}

} // namespace ashare::store
