// D17, issue 15: what gzip costs per response, compressed per request (server::gzip at zlib's
// default level) against compressed once per ETag (server::GzipCache: the request's own head
// stored, spliced before the tail deflated once), on a bars body read from FILE (for example a
// one-year answer: `ashare bars 600519.SH 2024-01-01 2024-12-31 --format json > FILE`). Prints
// both times, the ratio and the bytes; asserts nothing.
//
// Usage: ashare_bench_gzip FILE [ROUNDS]   (default 2000)
#include "server/gzip.hpp"
#include "server/gzip_cache.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

template <class F> double microseconds_per_call(int rounds, F&& call) {
  std::size_t sink = 0;
  for (int i = 0; i < rounds / 10 + 1; ++i) { // warm up
    sink += call();
  }
  const auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    sink += call();
  }
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  if (sink == 42) {
    std::puts(""); // keep `sink` alive
  }
  return us / rounds;
}

// A request id of the same length as the body's, different on every call.
std::string next_id(int i) {
  char text[40];
  std::snprintf(text, sizeof text, "%08x-0000-4000-8000-%012x", static_cast<unsigned>(i),
                static_cast<unsigned>(i * 7919));
  return text;
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [ROUNDS]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string original = text.str();
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2000;
  const std::string marker = "\"request_id\":\"";
  const auto at = original.find(marker);
  if (at == std::string::npos) {
    std::fprintf(stderr, "%s: no request_id in the body\n", argv[1]);
    return 1;
  }
  const auto id_at = at + marker.size();
  std::string body = original;
  int calls = 0;
  const auto with_new_id = [&] {
    body.replace(id_at, 36, next_id(++calls));
    return body.substr(id_at, 36);
  };

  std::size_t whole_bytes = 0;
  const double whole = microseconds_per_call(rounds, [&] {
    with_new_id();
    const auto out = ashare::server::gzip(body);
    whole_bytes = out.size();
    return out.size();
  });
  ashare::server::GzipCache cache(std::size_t{8} << 20);
  std::size_t spliced_bytes = 0;
  const double spliced = microseconds_per_call(rounds, [&] {
    const auto id = with_new_id();
    const auto out = cache.compress(body, "W/\"1-bench\"", id);
    spliced_bytes = out.size();
    return out.size();
  });
  std::printf("body %zu bytes: gzip per request %.1f us -> %zu bytes; once per ETag, spliced "
              "%.1f us -> %zu bytes; %.0fx less CPU, %+.2f%% bytes\n",
              body.size(), whole, whole_bytes, spliced, spliced_bytes, whole / spliced,
              100.0 * (static_cast<double>(spliced_bytes) - static_cast<double>(whole_bytes))
                / static_cast<double>(whole_bytes));
  return 0;
}
