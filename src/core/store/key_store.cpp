#include "core/store/key_store.hpp"

#include "core/store/locator.hpp"
#include "core/store/postgres/key_store.hpp"
#include "core/store/sqlite_key_store.hpp"

namespace ashare::store {

ChargeResult charge_credits(std::optional<KeyCredits>& key, std::int64_t cost) {
  if (!key) {
    return {}; // unknown: nothing charged, no balance
  }
  if (cost > 0 && key->credits && *key->credits >= cost && !key->revoked) {
    *key->credits -= cost;
    return ChargeResult{true, key->credits, false};
  }
  // Refused (or only read): the balance now, and why. A read charges nothing but says whether
  // the key may still be used.
  return ChargeResult{cost == 0 && key->credits && !key->revoked, key->credits, key->revoked};
}

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
