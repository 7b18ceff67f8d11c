#include "core/api/caller.hpp"

#include "core/auth/api_key.hpp"

namespace ashare::api {

Result<Caller> authenticate(const std::optional<std::string>& authorization, store::KeyStore& keys) {
  if (!authorization) {
    return make_error(ErrorCode::unauthorized,
                      "missing Authorization header: send \"Authorization: Bearer <API_KEY>\"");
  }
  const auto credential = auth::parse_bearer(*authorization);
  if (!credential) {
    return make_error(ErrorCode::unauthorized,
                      "invalid Authorization header: expected \"Bearer <API_KEY>\"");
  }
  const auto key = keys.find_by_digest(auth::key_digest(*credential));
  if (!key) {
    return make_error(ErrorCode::unauthorized, "invalid API key");
  }
  if (key->revoked_at) {
    return make_error(ErrorCode::unauthorized, "API key revoked at " + *key->revoked_at);
  }
  return Caller{key->id, key->plan, key->credits};
}

} // namespace ashare::api
