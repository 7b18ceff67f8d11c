// Waiting in the tests (issue 43): a test waits for a signal (a line a process prints, an answer,
// a seam's wait), never for a length of time; what it cannot be told, it polls, with a deadline
// that fails the test when it passes. No sleep stands for "long enough".
#pragma once

#include <chrono>
#include <functional>

namespace ashare::test {

// The deadline of a wait for something that comes at once on a quiet machine: generous (the
// suites also run under the sanitizers, on machines that build meanwhile), so that only a wait
// whose signal never comes fails by it.
inline constexpr std::chrono::milliseconds k_patience{30'000};

// Return whether `condition` held within `timeout`, asking it first at once and then every
// `interval`: the one sleep the tests need, between two looks at what they cannot be told.
bool poll_until(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = k_patience,
                std::chrono::milliseconds interval = std::chrono::milliseconds(10));

} // namespace ashare::test
