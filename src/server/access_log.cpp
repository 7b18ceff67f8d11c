#include "server/access_log.hpp"

#include <cerrno>
#include <climits>
#include <poll.h>
#include <unistd.h>
#include <utility>

namespace ashare::server {
namespace {

using Clock = std::chrono::steady_clock;

void append_escaped(std::string& out, std::string_view text) {
  constexpr std::string_view hex = "0123456789abcdef";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x21 || byte > 0x7e || c == '\\') {
      out += "\\x";
      out.push_back(hex[byte >> 4]);
      out.push_back(hex[byte & 0xf]);
    } else {
      out.push_back(c);
    }
  }
}

} // namespace

AccessLog::AccessLog(int fd, std::size_t max_backlog)
  : m_fd(fd), m_max_backlog(max_backlog), m_writer([this] { run(); }) {}

AccessLog::~AccessLog() {
  stop(std::chrono::milliseconds(1000));
}

void AccessLog::submit(std::string text, std::size_t lines) {
  if (text.empty()) {
    return;
  }
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping || m_backlog + text.size() > m_max_backlog) {
      m_dropped += lines;
      m_dropped_unreported += lines;
      return;
    }
    m_backlog += text.size();
    m_queue.push_back(Chunk{std::move(text), lines});
  }
  m_wake.notify_one();
}

void AccessLog::stop(std::chrono::milliseconds bound) {
  {
    std::lock_guard lock(m_mutex);
    if (!m_stopping) {
      m_stopping = true;
      m_give_up = Clock::now() + bound;
    }
  }
  m_wake.notify_one();
  if (m_writer.joinable()) {
    m_writer.join();
  }
}

std::uint64_t AccessLog::dropped() const {
  std::lock_guard lock(m_mutex);
  return m_dropped;
}

bool AccessLog::write_out(std::string_view text) {
  while (!text.empty()) {
    // Wait for room in slices, so that a stop is noticed while the sink is blocked; then write at
    // most PIPE_BUF bytes, which a pipe that polled writable takes without blocking.
    pollfd entry{m_fd, POLLOUT, 0};
    const int ready = ::poll(&entry, 1, 100);
    if (ready < 0 && errno != EINTR) {
      return false;
    }
    if (ready <= 0) {
      std::lock_guard lock(m_mutex);
      if (m_stopping && Clock::now() >= m_give_up) {
        return false;
      }
      continue;
    }
    if ((entry.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
      return false;
    }
    const ssize_t written = ::write(m_fd, text.data(), std::min<std::size_t>(text.size(), PIPE_BUF));
    if (written < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

void AccessLog::run() {
  while (true) {
    Chunk chunk;
    std::uint64_t unreported = 0;
    bool stopping = false;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [this] { return !m_queue.empty() || m_stopping || m_dropped_unreported > 0; });
      stopping = m_stopping;
      if (!m_queue.empty()) {
        // Everything queued, in one piece (up to 64 KiB): fewer writes to the sink.
        chunk = std::move(m_queue.front());
        m_queue.pop_front();
        while (!m_queue.empty() && chunk.text.size() + m_queue.front().text.size() <= 65536) {
          chunk.text += m_queue.front().text;
          chunk.lines += m_queue.front().lines;
          m_queue.pop_front();
        }
        m_backlog -= std::min(m_backlog, chunk.text.size());
      } else {
        unreported = std::exchange(m_dropped_unreported, 0);
      }
    }
    if (chunk.text.empty()) {
      // Caught up: say what was dropped meanwhile, then wait for more (or end).
      if (unreported > 0) {
        write_out("ashare: access log: " + std::to_string(unreported)
                  + " lines dropped while stderr was not read\n");
      }
      if (stopping) {
        return;
      }
      continue;
    }
    if (write_out(chunk.text)) {
      continue;
    }
    std::lock_guard lock(m_mutex);
    m_dropped += chunk.lines;
    m_dropped_unreported += chunk.lines;
    if (m_stopping) {
      // Given up on the sink: count the rest as dropped too, and end.
      for (const auto& rest : m_queue) {
        m_dropped += rest.lines;
      }
      m_queue.clear();
      m_backlog = 0;
      return;
    }
  }
}

void append_access_line(std::string& buffer,
                        std::string_view method,
                        std::string_view path,
                        int status,
                        std::chrono::microseconds took,
                        std::string_view request_id) {
  append_escaped(buffer, method);
  buffer.push_back(' ');
  append_escaped(buffer, path);
  buffer.push_back(' ');
  buffer += std::to_string(status);
  buffer.push_back(' ');
  buffer += std::to_string(took.count());
  buffer += "us ";
  buffer += request_id;
  buffer.push_back('\n');
}

} // namespace ashare::server
