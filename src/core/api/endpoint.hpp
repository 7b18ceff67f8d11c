// What an endpoint hands to dispatch once validation and plan checks have passed: the credits the
// request costs (D7) and how to render the body once the charge is known.
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
};

} // namespace ashare::api
