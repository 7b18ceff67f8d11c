// Who is asking (D5-D7): the authenticated key's id, plan and whether it is metered. The balance
// is never part of it: it is read, or returned by the charge, when a response needs it.
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"
#include "core/store/key_store.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace ashare::api {

struct Caller {
  std::int64_t key_id = 0;
  auth::Plan plan = auth::Plan::pro;
  bool metered = false;
};

// What authentication needs to know of a stored key (what api::KeyCache keeps).
struct KeyEntry {
  std::int64_t id = 0;
  auth::Plan plan = auth::Plan::free;
  bool metered = false;
  std::optional<std::string> revoked_at;
};

// Return the entry of `record`.
KeyEntry key_entry(const store::KeyRecord& record);

// Return the SHA-256 digest of the key in `authorization` (the header value): UNAUTHORIZED when
// it is missing or not a Bearer credential.
Result<std::string> bearer_digest(const std::optional<std::string>& authorization);

// Return the caller of `key`, the key found for a digest (nullopt: none): UNAUTHORIZED when it is
// unknown or revoked.
Result<Caller> caller_of(const std::optional<KeyEntry>& key);

// Return the caller of `authorization`, looking its key up in `keys` (bearer_digest, then
// caller_of).
Result<Caller> authenticate(const std::optional<std::string>& authorization, store::KeyStore& keys);

} // namespace ashare::api
