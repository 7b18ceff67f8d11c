// What the harnesses share: a property check that stops the fuzzer with a message, since a broken
// property is a finding as much as a crash is.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                                    \
  do {                                                                                           \
    if (!(condition)) {                                                                          \
      std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #condition);   \
      std::abort();                                                                              \
    }                                                                                            \
  } while (false)
