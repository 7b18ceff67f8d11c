// The one failure of a store that is not the request's fault nor a bug: the store cannot be
// reached (a database server down, restarting or refusing connections). D15 answers it with
// 503 SERVICE_UNAVAILABLE; what the request needed was not done, and trying again later may work.
#pragma once

#include <stdexcept>

namespace ashare::store {

class StoreUnavailable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ashare::store
