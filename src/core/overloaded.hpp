// Overloaded{lambdas...}: one visitor of a std::variant from a lambda per alternative.
#pragma once

namespace ashare {

template <class... Ts> struct Overloaded : Ts... {
  using Ts::operator()...;
};

// clang 14 deduces no aggregate's template arguments (P1816) without this guide.
template <class... Ts> Overloaded(Ts...) -> Overloaded<Ts...>;

} // namespace ashare
