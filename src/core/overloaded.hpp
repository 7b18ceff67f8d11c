// Overloaded{lambdas...}: one visitor of a std::variant from a lambda per alternative.
#pragma once

namespace ashare {

template <class... Ts> struct Overloaded : Ts... {
  using Ts::operator()...;
};

} // namespace ashare
