// How both stores keep a symbol's kind (D20): its word as kind_name() writes it ("stock",
// "index", "fund"), or NULL in a symbol's summary for a code D20 keeps out (a store made before
// D20 may hold one).
#pragma once

#include "core/domain/kind.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ashare::store {

// Return the stored word of canonical `symbol`'s kind by its code (domain::classify_code), or
// nullopt for a code D20 keeps out: what a symbol's summary holds when no listing names it.
inline std::optional<std::string> code_kind_text(std::string_view symbol) {
  const auto kind = domain::classify_code(symbol).kind;
  return kind ? std::optional(std::string(domain::kind_name(*kind))) : std::nullopt;
}

// Return the kind stored as `text`; nullopt for NULL (`text` nullopt). The schema's CHECK keeps
// every other word out.
inline std::optional<domain::Kind> stored_kind(std::optional<std::string_view> text) {
  return text ? domain::parse_kind(*text) : std::nullopt;
}

} // namespace ashare::store
