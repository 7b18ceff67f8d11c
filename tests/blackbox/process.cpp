#include "process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace bb {
namespace {

int decode_status(int raw) {
  if (WIFEXITED(raw)) {
    return WEXITSTATUS(raw);
  }
  if (WIFSIGNALED(raw)) {
    return 128 + WTERMSIG(raw);
  }
  return -1;
}

// The proxy variables remote mode reads (cli/net/proxy.hpp): every test reaches 127.0.0.1
// directly unless it sets them itself.
constexpr const char* k_proxy_variables[] = {"http_proxy=", "HTTP_PROXY=", "https_proxy=",
                                             "HTTPS_PROXY=", "no_proxy=", "NO_PROXY="};

bool is_proxy_variable(const char* entry) {
  return std::any_of(std::begin(k_proxy_variables), std::end(k_proxy_variables),
                     [entry](const char* name) {
                       return std::strncmp(entry, name, std::strlen(name)) == 0;
                     });
}

// The inherited environment without ASHARE_*, the proxy variables and the variables `extra` sets
// (getenv returns the first match, so an inherited HOME would hide the test's own), then `extra`.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  const auto overridden = [&](const char* entry) {
    for (const auto& item : extra) {
      const auto name = item.substr(0, item.find('=') + 1); // "NAME="
      if (std::strncmp(entry, name.c_str(), name.size()) == 0) {
        return true;
      }
    }
    return false;
  };
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, "ASHARE_", 7) != 0 && !is_proxy_variable(*entry)
        && !overridden(*entry)) {
      out.emplace_back(*entry);
    }
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

} // namespace

Process::Process(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env) {
  if (argv.empty()) {
    throw std::invalid_argument("Process: empty argv");
  }
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    const int saved = errno;
    close(out_pipe[0]);
    close(out_pipe[1]);
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(saved));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1); // dup2 clears FD_CLOEXEC
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);

  // The child starts with default signal dispositions and an empty signal mask.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &all);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> args = argv;
  std::vector<std::string> env = child_environment(extra_env);
  auto arg_pointers = pointers(args);
  auto env_pointers = pointers(env);
  const int rc = posix_spawn(&m_pid, args[0].c_str(), &actions, &attributes, arg_pointers.data(),
                             env_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    throw std::runtime_error("posix_spawn " + args[0] + ": " + std::strerror(rc));
  }
  m_reader = std::thread([this, out = out_pipe[0], err = err_pipe[0]] { read_loop(out, err); });
}

Process::~Process() {
  if (!m_status) {
    kill(m_pid, SIGKILL);
    int raw = 0;
    while (waitpid(m_pid, &raw, 0) < 0 && errno == EINTR) {
    }
  }
  if (m_reader.joinable()) {
    m_reader.join(); // the pipes close when the child is gone
  }
}

void Process::read_loop(int out_fd, int err_fd) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    const int ready = poll(fds, 2, -1);
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    for (auto& entry : fds) {
      if (entry.fd < 0 || entry.revents == 0) {
        continue;
      }
      const ssize_t n = read(entry.fd, buffer, sizeof buffer);
      if (n > 0) {
        std::lock_guard lock(m_mutex);
        (entry.fd == out_fd ? m_out : m_err).append(buffer, static_cast<std::size_t>(n));
        m_changed.notify_all();
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(entry.fd);
        entry.fd = -1;
        --open_count;
      }
    }
  }
  for (auto& entry : fds) {
    if (entry.fd >= 0) {
      close(entry.fd);
    }
  }
  std::lock_guard lock(m_mutex);
  m_closed = true;
  m_changed.notify_all();
}

void Process::send_signal(int signal) {
  if (!m_status) {
    kill(m_pid, signal);
  }
}

bool Process::exited() {
  if (m_status) {
    return true;
  }
  int raw = 0;
  const pid_t rc = waitpid(m_pid, &raw, WNOHANG);
  if (rc == m_pid) {
    m_status = decode_status(raw);
    return true;
  }
  return false;
}

std::optional<int> Process::wait_for_exit(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!exited()) {
    if (Clock::now() >= deadline) {
      return std::nullopt;
    }
    std::this_thread::sleep_for(5ms); // a poll interval: waitpid has no timeout
  }
  return m_status;
}

std::optional<std::string> Process::wait_for_stdout_line(const std::string& prefix,
                                                         std::chrono::milliseconds timeout) {
  return wait_for_line(m_out, prefix, timeout, 0);
}

std::optional<std::string> Process::wait_for_stderr_line(const std::string& prefix,
                                                         std::chrono::milliseconds timeout,
                                                         std::size_t from) {
  return wait_for_line(m_err, prefix, timeout, from);
}

std::optional<std::string> Process::wait_for_line(const std::string& text,
                                                  const std::string& prefix,
                                                  std::chrono::milliseconds timeout,
                                                  std::size_t from) {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock lock(m_mutex);
  while (true) {
    std::size_t start = from;
    while (true) {
      const std::size_t newline = text.find('\n', start);
      if (newline == std::string::npos) {
        break;
      }
      std::string line = text.substr(start, newline - start);
      if (line.rfind(prefix, 0) == 0) {
        return line;
      }
      start = newline + 1;
    }
    if (m_closed) {
      return std::nullopt;
    }
    if (m_changed.wait_until(lock, deadline) == std::cv_status::timeout) {
      return std::nullopt;
    }
  }
}

std::string Process::stdout_text() {
  std::lock_guard lock(m_mutex);
  return m_out;
}

std::string Process::stderr_text() {
  std::lock_guard lock(m_mutex);
  return m_err;
}

bool Process::wait_for_output_closed(std::chrono::milliseconds timeout) {
  std::unique_lock lock(m_mutex);
  return m_changed.wait_for(lock, timeout, [this] { return m_closed; });
}

std::string describe(const RunResult& result) {
  return "exit " + std::to_string(result.status) + (result.timed_out ? " (timed out)" : "")
         + "\nstdout:\n" + result.out + "stderr:\n" + result.err;
}

RunResult run_process(const std::vector<std::string>& argv,
                      std::chrono::milliseconds timeout,
                      const std::vector<std::string>& extra_env) {
  Process process(argv, extra_env);
  RunResult result;
  const auto status = process.wait_for_exit(timeout);
  if (!status) {
    result.timed_out = true;
    process.send_signal(SIGKILL);
    result.status = process.wait_for_exit(10s).value_or(-1);
  } else {
    result.status = *status;
  }
  process.wait_for_output_closed(10s);
  result.out = process.stdout_text();
  result.err = process.stderr_text();
  return result;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t newline = text.find('\n', start);
    if (newline == std::string::npos) {
      newline = text.size();
    }
    lines.push_back(text.substr(start, newline - start));
    start = newline + 1;
  }
  return lines;
}

} // namespace bb
