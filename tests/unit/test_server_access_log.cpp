// server::AccessLog (issue 9): lines escaped so that a request cannot forge lines or terminal
// sequences, a sink that blocks never blocks the caller (lines are dropped and counted, and the
// count is written once the sink takes lines again), and a bounded stop.
#include "server/access_log.hpp"

#include <doctest/doctest.h>
#include <chrono>
#include <fcntl.h>
#include <string>
#include <thread>
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
    ::close(write_end);
  }
  std::string drain(std::chrono::milliseconds within) {
    std::string out;
    const auto deadline = Clock::now() + within;
    char chunk[65536];
    while (Clock::now() < deadline) {
      const ssize_t got = ::read(read_end, chunk, sizeof chunk);
      if (got > 0) {
        out.append(chunk, static_cast<std::size_t>(got));
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
    return out;
  }
};

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
  CHECK(pipe.drain(std::chrono::milliseconds(100)) == expected);
  CHECK(log.dropped() == 0);
}

TEST_CASE("server::AccessLog drops and counts lines while its sink is blocked") {
  Pipe pipe;
  ::fcntl(pipe.write_end, F_SETPIPE_SZ, 4096);
  server::AccessLog log(pipe.write_end, 16 * 1024);
  const auto start = Clock::now();
  for (int i = 0; i < 5000; ++i) { // ~150 KB: far beyond the pipe and the backlog
    log.submit(line(i), 1);
  }
  CHECK(Clock::now() - start < std::chrono::seconds(1)); // never waited on the sink
  CHECK(log.dropped() > 0);
  const auto dropped = log.dropped();

  // Once the sink is read again, what was kept comes out, then the count of what was not.
  const auto out = pipe.drain(std::chrono::milliseconds(1500));
  std::size_t lines = 0;
  std::uint64_t reported = 0;
  std::size_t at = 0;
  while (at < out.size()) {
    const auto end = out.find('\n', at);
    REQUIRE(end != std::string::npos);
    const auto text = out.substr(at, end - at);
    if (text.rfind("GET ", 0) == 0) {
      ++lines;
    } else {
      REQUIRE(text.rfind("ashare: access log: ", 0) == 0);
      reported += std::stoull(text.substr(20));
    }
    at = end + 1;
  }
  CHECK(reported == dropped);
  CHECK(lines + dropped == 5000);
  log.stop(std::chrono::milliseconds(500));
}

TEST_CASE("server::AccessLog::stop gives up on a sink that stays blocked") {
  Pipe pipe;
  ::fcntl(pipe.write_end, F_SETPIPE_SZ, 4096);
  auto log = std::make_unique<server::AccessLog>(pipe.write_end, 64 * 1024);
  for (int i = 0; i < 3000; ++i) {
    log->submit(line(i), 1);
  }
  const auto start = Clock::now();
  log->stop(std::chrono::milliseconds(300));
  const auto took = Clock::now() - start;
  CHECK(took >= std::chrono::milliseconds(250));
  CHECK(took < std::chrono::seconds(3));
  CHECK(log->dropped() > 0);
  log->submit(line(0), 1); // after the stop: counted as dropped, never written
}
