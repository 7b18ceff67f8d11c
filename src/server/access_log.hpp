// The access log (issue 9): one line per request on stderr, "METHOD PATH STATUS <micros>us
// REQUEST_ID", never the key. Each network thread appends its lines to a buffer of its own and
// hands it over at least every 100 ms; a writer thread of the log's own writes them out. A sink
// that blocks (a pipe nobody reads) never stops request handling: beyond a bounded backlog, lines
// are dropped and counted, and the count is written once the sink takes lines again.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace ashare::server {

class AccessLog {
public:
  // Write to file descriptor `fd` (not owned), holding at most `max_backlog` bytes not yet written
  // (1 MiB: about ten thousand lines).
  explicit AccessLog(int fd, std::size_t max_backlog = std::size_t{1} << 20);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  // Queue `text`, `lines` whole lines, for writing; when the backlog is full, drop them and count
  // the lines instead. Never waits on the sink. Thread-safe.
  void submit(std::string text, std::size_t lines);

  // Write what is queued, giving up on a sink that stays blocked for `bound`, and stop the writer.
  void stop(std::chrono::milliseconds bound);

  // Return the number of lines dropped so far.
  std::uint64_t dropped() const;

private:
  struct Chunk {
    std::string text;
    std::size_t lines = 0;
  };
  void run();
  // Write `text` whole; false when it gave up (stopping, past the deadline).
  bool write_out(std::string_view text);

  int m_fd;
  std::size_t m_max_backlog;
  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<Chunk> m_queue;
  std::size_t m_backlog = 0;
  std::uint64_t m_dropped = 0;            // in all
  std::uint64_t m_dropped_unreported = 0; // since the last note
  bool m_stopping = false;
  std::chrono::steady_clock::time_point m_give_up{};
  std::thread m_writer;
};

// Append the access-log line of one request to `buffer`; bytes of `method` and `path` outside
// printable ASCII are escaped as \xHH, so a request cannot forge lines or terminal sequences.
void append_access_line(std::string& buffer,
                        std::string_view method,
                        std::string_view path,
                        int status,
                        std::chrono::microseconds took,
                        std::string_view request_id);

} // namespace ashare::server
