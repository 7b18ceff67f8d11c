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

// Return the calling thread's id as the kernel knows it (gettid), for thread_sleeps().
int thread_id();

// Return whether the kernel shows thread `id` of this process asleep (state S in /proc: blocked,
// as on a condition variable); false once it ended. What a test polls, as it reads a connection's
// state in /proc/net/tcp, to know that a thread went as far as it will go until the test acts,
// when nothing can tell it so.
bool thread_sleeps(int id);

} // namespace ashare::test
