// Who is asking (D5-D7): the authenticated key's plan and credit balance.
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
  std::optional<std::int64_t> balance; // nullopt: unmetered
};

// Return the caller of `authorization` (the header value): UNAUTHORIZED when it is missing, not
// a Bearer credential, unknown or revoked.
Result<Caller> authenticate(const std::optional<std::string>& authorization, store::KeyStore& keys);

} // namespace ashare::api
