// What the harnesses share: a property check that stops the fuzzer with a message, since a broken
// property is a finding as much as a crash is.
#pragma once

#include "core/error.hpp"

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                    \
  do {                                                                                           \
    if (!(condition)) {                                                                          \
      std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #condition);   \
      std::abort();                                                                              \
    }                                                                                            \
  } while (false)

namespace ashare::fuzz {

// Check that a reader's result is a value or a refusal as INVALID_INPUT, never another error.
template <class T>
void check_read(const Result<T>& read) {
  FUZZ_CHECK(read.ok() || read.error().code == ErrorCode::invalid_input);
}

} // namespace ashare::fuzz
