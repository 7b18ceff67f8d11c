#include "core/api/caller.hpp"

#include "core/auth/api_key.hpp"

namespace ashare::api {

KeyEntry key_entry(const store::KeyRecord& record) {
  return KeyEntry{record.id, record.plan, record.credits.has_value(), record.revoked_at};
}

Result<std::string> bearer_digest(const std::optional<std::string>& authorization) {
  if (!authorization) {
    return make_error(ErrorCode::unauthorized,
                      "missing Authorization header: send \"Authorization: Bearer <API_KEY>\"");
  }
  const auto credential = auth::parse_bearer(*authorization);
  if (!credential) {
    return make_error(ErrorCode::unauthorized,
                      "invalid Authorization header: expected \"Bearer <API_KEY>\"");
  }
  return auth::key_digest(*credential);
}

Result<Caller> caller_of(const std::optional<KeyEntry>& key) {
  if (!key) {
    return make_error(ErrorCode::unauthorized, "invalid API key");
  }
  if (key->revoked_at) {
    return make_error(ErrorCode::unauthorized, "API key revoked at " + *key->revoked_at);
  }
  return Caller{key->id, key->plan, key->metered};
}

Result<Caller> authenticate(const std::optional<std::string>& authorization, store::KeyStore& keys) {
  const auto digest = bearer_digest(authorization);
  if (!digest) {
    return digest.error();
  }
  const auto record = keys.find_by_digest(*digest);
  return caller_of(record ? std::optional(key_entry(*record)) : std::nullopt);
}

} // namespace ashare::api
