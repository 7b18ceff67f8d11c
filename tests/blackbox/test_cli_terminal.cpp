// The CLI on a terminal (issue 4 "Output"): the default format is a table, rows are coloured red up
// and green down, and never with NO_COLOR set. `script` (util-linux, essential in Debian) gives the
// command a pseudo-terminal.
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

namespace bb {
namespace {

RunResult run_on_terminal(const TestStore& store, const std::string& command, bool no_color) {
  std::vector<std::string> env{"HOME=" + store.dir().string(), "TERM=xterm"};
  if (no_color) {
    env.push_back("NO_COLOR=1");
  }
  return run_process({"/usr/bin/script", "-qec", command, "/dev/null"}, 60s, env);
}

} // namespace

TEST_CASE("cli terminal: a coloured table by default, plain with NO_COLOR") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  // 2024-06-17 and 06-18 fell (change_pct < 0), 2024-06-19 rose (0.6964).
  const std::string command =
      ashare_bin() + " --db " + store.db().string() + " bars 600519.SH 2024-06-17 2024-06-19";

  const auto coloured = run_on_terminal(store, command, false);
  REQUIRE(coloured.status == 0);
  CHECK(coloured.out.find("DATE") != std::string::npos); // a table, not csv
  CHECK(coloured.out.find("symbol,trade_date") == std::string::npos);
  CHECK(coloured.out.find("\x1b[32m2024-06-17") != std::string::npos);
  CHECK(coloured.out.find("\x1b[32m2024-06-18") != std::string::npos);
  CHECK(coloured.out.find("\x1b[31m2024-06-19") != std::string::npos);
  CHECK(coloured.out.find("4,831,816") != std::string::npos); // thousands separators

  const auto plain = run_on_terminal(store, command, true);
  REQUIRE(plain.status == 0);
  CHECK(plain.out.find("DATE") != std::string::npos);
  CHECK(plain.out.find("\x1b[") == std::string::npos);
}

} // namespace bb

namespace bb {

// Issue 4: `sync` draws a progress bar on stderr when it is a terminal, else prints one summary
// line at the end.
TEST_CASE("cli terminal: sync shows a progress bar on a terminal and a summary line otherwise") {
  TestStore remote;
  remote.import({fixture("bancob_600519.SH.csv"), fixture("bancob_600036.SH.csv")});
  const auto key = remote.create_key("pro", std::nullopt, "sync");
  ServerProcess server(remote);
  const std::string base_url = "http://127.0.0.1:" + std::to_string(server.port());

  TempDir terminal_client;
  const std::string command = ashare_bin() + " --db " + (terminal_client.path() / "a.db").string()
                              + " --base-url " + base_url + " --api-key " + key.plaintext
                              + " sync 600519.SH 600036.SH --plan pro --from 2024-01-01";
  const auto on_terminal = run_on_terminal(remote, command, true);
  REQUIRE(on_terminal.status == 0);
  CHECK(on_terminal.out.find("\rsync [") != std::string::npos);
  CHECK(on_terminal.out.find("##############################]") != std::string::npos); // full
  CHECK(on_terminal.out.find("sync: 2 symbols") == std::string::npos);

  TempDir piped_client;
  const auto piped =
      run_process({ashare_bin(), "--db", (piped_client.path() / "a.db").string(), "--base-url",
                   base_url, "--api-key", key.plaintext, "sync", "600519.SH", "600036.SH", "--plan",
                   "pro", "--from", "2024-01-01"},
                  60s, {"HOME=" + piped_client.path().string()});
  REQUIRE(piped.status == 0);
  CHECK(piped.err.find('\r') == std::string::npos);
  CHECK(piped.err.find("sync: 2 symbols, 2024-01-01 to 2025-10-23: ") != std::string::npos);
}

} // namespace bb
