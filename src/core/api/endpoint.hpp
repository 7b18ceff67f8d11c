// What an endpoint hands to dispatch once validation and plan checks have passed: the credits the
// request costs (D7) and how to render the body once the charge is known; or that it is deferred,
// because answering needs the store and this step may not wait on it (api/store_view.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace ashare::api {

struct Prepared {
  std::int64_t cost = 0; // credits: one per symbol served (D7)
  // Render the body; `credits_charged` is set when credits were charged (D7 meta.credits_charged).
  std::function<std::string(std::optional<std::int64_t> credits_charged)> render;
  bool deferred = false; // nothing to render yet: answer the request again where it may wait
  int status = 200;      // of the rendered body (only /healthz answers anything else: 503, D15)

  // Return a deferred Prepared.
  static Prepared defer() {
    Prepared prepared;
    prepared.deferred = true;
    return prepared;
  }
};

} // namespace ashare::api
