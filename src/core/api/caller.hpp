// Who is asking (D5-D7): the authenticated key's id, plan and whether it is metered. The balance
// is never part of it: it is read, or returned by the charge, when a response needs it.
#pragma once

#include "core/auth/plan.hpp"
#include "core/error.hpp"
#include "core/store/key_store.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ashare::api {

struct Caller {
  std::int64_t key_id = 0;
  auth::Plan plan = auth::Plan::pro;
  bool metered = false;
  // Remote mode: the remote refuses what its key may not fetch, and the cache holds only what it
  // gave, so D6's refusals are the remote's; here the plan gives only its defaults (D4's limit).
  bool plan_checked_by_remote = false;
};

// What authentication needs to know of a stored key (what api::KeyCache keeps).
struct KeyEntry {
  std::int64_t id = 0;
  auth::Plan plan = auth::Plan::free;
  bool metered = false;
  std::optional<std::string> revoked_at;
  // SHA-256, compared in constant time with a presented key's; a fixed array, so that copying an
  // entry (once per request) allocates nothing.
  std::array<char, 32> digest{};
};

// Return the entry of `record`.
KeyEntry key_entry(const store::KeyRecord& record);

// A presented key as it is looked up: by its public prefix, then its digest compared with those
// of the stored keys of that prefix (issue 13: no lookup compares the secret part).
struct Credential {
  std::string prefix; // auth::key_lookup_prefix of the key
  std::string digest; // SHA-256 of the key
};

// Return the credential in `authorization` (the header value): UNAUTHORIZED when it is missing or
// not a Bearer credential.
Result<Credential> bearer_credential(const std::optional<std::string>& authorization);

// Return the entry of `candidates` (the stored keys of a prefix) whose digest is `digest`, or
// nullopt; every candidate is compared, each in constant time.
std::optional<KeyEntry> match_key(std::span<const KeyEntry> candidates, const std::string& digest);

// Return the caller of `key`, the key found for a digest (nullopt: none): UNAUTHORIZED when it is
// unknown or revoked.
Result<Caller> caller_of(const std::optional<KeyEntry>& key);

// Return the caller of `authorization`, looking its key up in `keys` (bearer_credential,
// find_by_prefix, match_key, then caller_of).
Result<Caller> authenticate(const std::optional<std::string>& authorization, store::KeyStore& keys);

} // namespace ashare::api
