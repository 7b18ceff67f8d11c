// Child processes for the black-box tests: posix_spawn with stdout and stderr captured through
// pipes that a reader thread drains (so a chatty child never blocks on a full pipe), bounded
// waits, and a destructor that kills and reaps whatever is still running.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace bb {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// The outcome of a process run to completion.
struct RunResult {
  int status = -1;        // exit status; 128 + signal number when killed by a signal
  bool timed_out = false; // the run was killed because it exceeded its time limit
  std::string out;        // everything written to stdout
  std::string err;        // everything written to stderr
};

// `result` for a failed check's message: its exit status, whether it timed out, and its output.
std::string describe(const RunResult& result);

// A running child process. Not copyable or movable: the reader thread holds `this`.
class Process {
public:
  // Spawn `argv[0]` (a path) with `argv`, in the current environment minus the ASHARE_* and proxy
  // variables, plus `extra_env` ("NAME=value" entries).
  explicit Process(const std::vector<std::string>& argv,
                   const std::vector<std::string>& extra_env = {});
  ~Process(); // SIGKILL when still running, then reap and join the reader
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return m_pid; }

  // Send `signal` unless the child has already been reaped.
  void send_signal(int signal);

  // Return whether the child has exited (reaping it when it has).
  bool exited();

  // Wait at most `timeout` for the child to exit; return its exit status (128 + signal number
  // when a signal ended it), or nullopt on timeout.
  std::optional<int> wait_for_exit(std::chrono::milliseconds timeout);

  // Wait at most `timeout` for a complete stdout line starting with `prefix`; return it (without
  // the newline), or nullopt on timeout or when stdout closed first.
  std::optional<std::string> wait_for_stdout_line(const std::string& prefix,
                                                  std::chrono::milliseconds timeout);

  // As wait_for_stdout_line(), for stderr, looking only at lines that start at byte `from` or
  // later (the size of stderr_text() before the test asked for the line, say).
  std::optional<std::string> wait_for_stderr_line(const std::string& prefix,
                                                  std::chrono::milliseconds timeout,
                                                  std::size_t from = 0);

  // Everything captured so far. After the child exited and the pipes closed, this is all of it.
  std::string stdout_text();
  std::string stderr_text();

  // Wait (bounded) until both pipes reached end of file; return whether they did.
  bool wait_for_output_closed(std::chrono::milliseconds timeout);

private:
  void read_loop(int out_fd, int err_fd);
  // Wait for a line of `text` (m_out or m_err) as wait_for_stderr_line() says.
  std::optional<std::string> wait_for_line(const std::string& text,
                                           const std::string& prefix,
                                           std::chrono::milliseconds timeout,
                                           std::size_t from);

  pid_t m_pid = -1;
  std::optional<int> m_status; // set once reaped
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::string m_out;
  std::string m_err;
  bool m_closed = false; // both pipes reached EOF
  std::thread m_reader;
};

// Run `argv` to completion, killing it after `timeout`.
RunResult run_process(const std::vector<std::string>& argv,
                      std::chrono::milliseconds timeout = 60s,
                      const std::vector<std::string>& extra_env = {});

// Split `text` into lines (without the newline characters; no empty last line).
std::vector<std::string> split_lines(const std::string& text);

} // namespace bb
