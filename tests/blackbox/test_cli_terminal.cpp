// The CLI on a terminal (issue 4 "Output", issue 12 "Tables a quant reads"): the default format
// is a table, rows are coloured red up and green down, never with NO_COLOR set, and the table
// fits the terminal's width (golden screens at 80 and 160 columns). `script` (util-linux,
// essential in Debian) gives the command a pseudo-terminal; `stty` sets its size.
#include "process.hpp"
#include "server_process.hpp"
#include "support/build_paths.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

namespace bb {
namespace {

// Run `command` (a shell command line) on a pseudo-terminal of `columns` x 40; its stdout and
// stderr both reach the terminal, as they reach a user's.
RunResult run_on_terminal(const TestStore& store,
                          const std::string& command,
                          bool no_color,
                          int columns = 160) {
  std::vector<std::string> env{"HOME=" + store.dir().string(), "TERM=xterm"};
  if (no_color) {
    env.push_back("NO_COLOR=1");
  }
  const std::string sized = "stty cols " + std::to_string(columns) + " rows 40; "
                            + (no_color ? "" : "unset NO_COLOR; ") + "exec " + command;
  return run_process({"/usr/bin/script", "-qec", sized, "/dev/null"}, 60s, env);
}

// `text` as a file holds it: the terminal's "\r\n" line ends back to "\n".
std::string without_cr(std::string text) {
  std::erase(text, '\r');
  return text;
}

// `text` without ANSI SGR sequences ("\x1b[31m", "\x1b[0m").
std::string without_sgr(const std::string& text) {
  return std::regex_replace(text, std::regex("\x1b\\[[0-9;]*m"), "");
}

// The committed screens, in golden/ next to this file (found from the source tree, not __FILE__:
// under ccache's base_dir that is relative to the build directory, issue 43).
std::string golden_screen(const std::string& name) {
  std::ifstream in(
      std::filesystem::path(ashare::test::source_dir()) / "tests" / "blackbox" / "golden" / name,
      std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST_CASE("cli terminal: a coloured table by default, plain with NO_COLOR") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  // 2024-06-17 and 06-18 fell (change_pct < 0), 2024-06-19 rose (0.6964).
  const std::string command =
      ashare_bin() + " --db '" + store.data_locator() + "' bars 600519.SH 2024-06-17 2024-06-19";

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

// Issue 12: the screens a user sees at 80 and 160 columns. At 160 every column fits; at 80 volume
// and turnover turn compact and the least important columns give way (FACTOR, TURNOVER, VOLUME,
// ...), named in a note, instead of lines wrapping. Prices keep every digit, padded per column.
TEST_CASE("cli terminal: tables fit 80 and 160 columns (golden screens)") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv"), fixture("bancob_600036.SH.csv")});
  const std::string ashare = ashare_bin() + " --db '" + store.data_locator() + "' ";
  const struct {
    const char* args;
    int columns;
    const char* golden;
  } screens[] = {
    {"bars 600519.SH 2024-06-14 2024-06-21", 160,
     "tty160_bars_600519.SH_2024-06-14_2024-06-21.txt"},
    {"bars 600519.SH 2024-06-14 2024-06-21", 80, "tty80_bars_600519.SH_2024-06-14_2024-06-21.txt"},
    {"bars 600519.SH,600036.SH 2024-06-18 2024-06-20", 80,
     "tty80_bars_600519.SH_600036.SH_2024-06-18_2024-06-20.txt"},
    {"macd 600519.SH,600036.SH --from 2024-12-27 --to 2024-12-31 --order asc --underlying", 160,
     "tty160_macd_600519.SH_600036.SH_2024-12-27_2024-12-31_underlying.txt"},
    {"macd 600519.SH,600036.SH --from 2024-12-27 --to 2024-12-31 --order asc --underlying", 80,
     "tty80_macd_600519.SH_600036.SH_2024-12-27_2024-12-31_underlying.txt"},
  };
  for (const auto& screen : screens) {
    CAPTURE(screen.golden);
    const auto run = run_on_terminal(store, ashare + screen.args, true, screen.columns);
    REQUIRE(run.status == 0);
    const auto text = without_cr(run.out);
    CHECK(text == golden_screen(screen.golden));
    for (const auto& line : split_lines(text)) {
      CHECK(line.size() <= static_cast<std::size_t>(screen.columns));
    }
  }

  SUBCASE("coloured: the same screen, rows red up and green down, title and headers plain") {
    const auto run =
        run_on_terminal(store, ashare + "bars 600519.SH 2024-06-14 2024-06-21", false, 80);
    REQUIRE(run.status == 0);
    const auto text = without_cr(run.out);
    CHECK(without_sgr(text) == golden_screen("tty80_bars_600519.SH_2024-06-14_2024-06-21.txt"));
    CHECK(text.rfind("600519.SH  2024-06-14 .. 2024-06-21  forward-adjusted\nDATE ", 0) == 0);
    CHECK(text.find("\n\x1b[32m2024-06-17  1449.7438") != std::string::npos);
    CHECK(text.find("\n\x1b[31m2024-06-19  1446.6561") != std::string::npos);
    CHECK(text.find("  +0.6964   4.13M\x1b[0m\n") != std::string::npos);
  }
  SUBCASE("in a pipe, COLUMNS is the width") {
    const std::vector<std::string> args{ashare_bin(), "--db",       store.data_locator(),
                                        "bars",       "600519.SH",  "2024-06-14",
                                        "2024-06-21", "--format",   "table"};
    const auto narrow = run_process(args, 60s, {"HOME=" + store.dir().string(), "COLUMNS=80"});
    REQUIRE(narrow.status == 0);
    const auto screen = golden_screen("tty80_bars_600519.SH_2024-06-14_2024-06-21.txt");
    const auto note = screen.substr(screen.find("ashare: note: "));
    CHECK(narrow.out + note == screen);
    CHECK(narrow.err == note);
    const auto wide = run_process(args, 60s, {"HOME=" + store.dir().string(), "COLUMNS=160"});
    REQUIRE(wide.status == 0);
    CHECK(wide.out == golden_screen("tty160_bars_600519.SH_2024-06-14_2024-06-21.txt"));
    CHECK(wide.err.empty());
  }
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
