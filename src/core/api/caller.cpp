#include "core/api/caller.hpp"

#include "core/auth/api_key.hpp"

#include <algorithm>
#include <string_view>

namespace ashare::api {

KeyEntry key_entry(const store::KeyRecord& record) {
  KeyEntry entry{record.id, record.plan, record.credits.has_value(), record.revoked_at, {}};
  std::copy_n(record.digest.begin(), std::min(record.digest.size(), entry.digest.size()),
              entry.digest.begin());
  return entry;
}

std::optional<KeyEntry> match_key(std::span<const KeyEntry> candidates, const std::string& digest) {
  std::optional<KeyEntry> found;
  for (const auto& candidate : candidates) {
    if (auth::digests_equal(std::string_view(candidate.digest.data(), candidate.digest.size()),
                            digest)) {
      found = candidate; // no early exit: every candidate costs the same
    }
  }
  return found;
}

Result<Credential> bearer_credential(const std::optional<std::string>& authorization) {
  if (!authorization) {
    return make_error(ErrorCode::unauthorized,
                      "missing Authorization header: send \"Authorization: Bearer <API_KEY>\"");
  }
  const auto credential = auth::parse_bearer(*authorization);
  if (!credential) {
    return make_error(ErrorCode::unauthorized,
                      "invalid Authorization header: expected \"Bearer <API_KEY>\"");
  }
  return Credential{std::string(auth::key_lookup_prefix(*credential)),
                    auth::key_digest(*credential)};
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
  const auto credential = bearer_credential(authorization);
  if (!credential) {
    return credential.error();
  }
  std::vector<KeyEntry> candidates;
  for (const auto& record : keys.find_by_prefix(credential->prefix)) {
    candidates.push_back(key_entry(record));
  }
  return caller_of(match_key(candidates, credential->digest));
}

} // namespace ashare::api
