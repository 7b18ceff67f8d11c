// server::AccessLog (issue 9): lines escaped so that a request cannot forge lines or terminal
// sequences, a sink that blocks never blocks the caller (lines are dropped and counted, and the
// count is written once the sink takes lines again), and a bounded stop. That the caller never
// waits is shown by order (done while nobody reads the sink), not by time (bench/serve_timings.py
// prints how long a server's requests take with its log unread).
#include "server/access_log.hpp"

#include "support/wait.hpp"

#include <doctest/doctest.h>
#include <chrono>
#include <fcntl.h>
#include <future>
#include <poll.h>
#include <string>
#include <unistd.h>

using namespace ashare;
using Clock = std::chrono::steady_clock;

TEST_CASE("server::append_access_line") {
  std::string out;
  server::append_access_line(out, "GET", "/v1/ohlc/range/1/day/2024-01-02/2024-01-05", 200,
                             std::chrono::microseconds(1234), "0b6b5d0c-4ac5-4e53-9f3b-4a9c1d2e3f40");
  CHECK(out
        == "GET /v1/ohlc/range/1/day/2024-01-02/2024-01-05 200 1234us "
           "0b6b5d0c-4ac5-4e53-9f3b-4a9c1d2e3f40\n");
  out.clear();
  server::append_access_line(out, "F\x1bO", "/a b\nGET /forged 200\r\\\xff", 404,
                             std::chrono::microseconds(5), "-");
  CHECK(out == "F\\x1bO /a\\x20b\\x0aGET\\x20/forged\\x20200\\x0d\\x5c\\xff 404 5us -\n");
}

namespace {

struct Pipe {
  int read_end = -1;
  int write_end = -1;
  Pipe() {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
    read_end = fds[0];
    write_end = fds[1];
    ::fcntl(read_end, F_SETFL, O_NONBLOCK);
  }
  ~Pipe() {
    ::close(read_end);
    close_write();
  }
  // Close the write end: once what is in the pipe is read, the reader sees its end.
  void close_write() {
    if (write_end >= 0) {
      ::close(write_end);
      write_end = -1;
    }
  }
  // Read what the pipe holds now, without waiting.
  std::string take() {
    std::string out;
    char chunk[65536];
    ssize_t got = 0;
    while ((got = ::read(read_end, chunk, sizeof chunk)) > 0) {
      out.append(chunk, static_cast<std::size_t>(got));
    }
    return out;
  }
  // Read until the write end is closed and the pipe empty; REQUIRE that it is within `within`.
  std::string drain_to_end(std::chrono::milliseconds within) {
    std::string out;
    const auto deadline = Clock::now() + within;
    char chunk[65536];
    while (true) {
      const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      REQUIRE_MESSAGE(left.count() > 0, "the pipe did not end within " << within.count() << " ms");
      pollfd entry{read_end, POLLIN, 0};
      if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) {
        continue;
      }
      const ssize_t got = ::read(read_end, chunk, sizeof chunk);
      if (got == 0) {
        return out;
      }
      if (got > 0) {
        out.append(chunk, static_cast<std::size_t>(got));
      }
    }
  }
};

// The lines of `out`, GET lines counted and the dropped counts of the notes summed.
struct Written {
  std::size_t lines = 0;
  std::uint64_t reported = 0;
};
Written written(const std::string& out) {
  Written result;
  std::size_t at = 0;
  while (at < out.size()) {
    const auto end = out.find('\n', at);
    REQUIRE(end != std::string::npos);
    const auto text = out.substr(at, end - at);
    if (text.rfind("GET ", 0) == 0) {
      ++result.lines;
    } else {
      REQUIRE(text.rfind("ashare: access log: ", 0) == 0);
      result.reported += std::stoull(text.substr(20));
    }
    at = end + 1;
  }
  return result;
}

// Wait up to k_patience for `work`, reading nothing from `pipe`; return whether it was done. When
// it was not (it waits on the sink: the defect under test), read the pipe until it is, so that the
// test ends.
bool done_unread(std::future<void>& work, Pipe& pipe) {
  const bool done = work.wait_for(ashare::test::k_patience) == std::future_status::ready;
  while (work.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready) {
    pipe.take();
  }
  return done;
}

std::string line(int i) {
  return "GET /healthz 200 1us id-" + std::to_string(i) + "\n";
}

} // namespace

TEST_CASE("server::AccessLog writes what it is given, in order") {
  Pipe pipe;
  server::AccessLog log(pipe.write_end);
  std::string expected;
  for (int i = 0; i < 100; ++i) {
    log.submit(line(i), 1);
    expected += line(i);
  }
  log.stop(std::chrono::milliseconds(1000));
  pipe.close_write(); // the log has written everything it will: stop() waited for its writer
  CHECK(pipe.drain_to_end(ashare::test::k_patience) == expected);
  CHECK(log.dropped() == 0);
}

TEST_CASE("server::AccessLog drops and counts lines while its sink is blocked") {
  Pipe pipe;
  ::fcntl(pipe.write_end, F_SETPIPE_SZ, 4096);
  server::AccessLog log(pipe.write_end, 16 * 1024);
  // ~150 KB, far beyond the pipe and the backlog, submitted while nobody reads the pipe: done
  // all the same, so it never waited on the sink.
  auto submitting = std::async(std::launch::async, [&] {
    for (int i = 0; i < 5000; ++i) {
      log.submit(line(i), 1);
    }
  });
  REQUIRE(done_unread(submitting, pipe));
  CHECK(log.dropped() > 0);
  const auto dropped = log.dropped();

  // Once the sink is read again, what was kept comes out, then the count of what was not: read
  // until the lines and the counts account for all 5,000, then to the end after the stop.
  std::string out;
  CHECK(ashare::test::poll_until([&] {
    out += pipe.take();
    const auto so_far = written(out.substr(0, out.rfind('\n') + 1));
    return so_far.lines + so_far.reported >= 5000;
  }));
  log.stop(std::chrono::milliseconds(500));
  pipe.close_write();
  out += pipe.drain_to_end(ashare::test::k_patience);
  const auto all = written(out);
  CHECK(all.reported == dropped);
  CHECK(all.lines + dropped == 5000);
}

TEST_CASE("server::AccessLog::stop gives up on a sink that stays blocked") {
  Pipe pipe;
  ::fcntl(pipe.write_end, F_SETPIPE_SZ, 4096);
  auto log = std::make_unique<server::AccessLog>(pipe.write_end, 64 * 1024);
  for (int i = 0; i < 3000; ++i) {
    log->submit(line(i), 1);
  }
  // It gives up: stop() returns though nobody reads the pipe, and not before its bound (the lower
  // bound cannot fail by a slow machine, which only makes it later).
  const auto start = Clock::now();
  auto stopping =
    std::async(std::launch::async, [&] { log->stop(std::chrono::milliseconds(300)); });
  REQUIRE(done_unread(stopping, pipe));
  CHECK(Clock::now() - start >= std::chrono::milliseconds(250));
  CHECK(log->dropped() > 0);
  log->submit(line(0), 1); // after the stop: counted as dropped, never written
}
