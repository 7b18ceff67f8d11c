// Issue 5 §2 on the command line: `import --format ... --adj-factor ... --adjusted-input
// --symbol` on the real extracts of tests/data/vendor/, and the progress bar on a terminal.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

#include <fstream>

namespace bb {
namespace {

std::filesystem::path vendor(const std::string& name) {
  return data_dir() / "vendor" / name;
}

} // namespace

TEST_CASE("import CLI: vendor formats") {
  TestStore store;
  SUBCASE("tushare, detected, factors from the pre_close chain") {
    const auto path = vendor("tushare_daily_600519.SH.csv");
    const auto run = store.cli({"import", path.string()});
    CHECK(run.status == 0);
    CHECK(run.out
          == path.string()
               + ": tushare, loaded 161 rows for 1 symbol, factors from the pre_close chain, 2 "
                 "adjustment events; as_of 2024-07-31\n");
    CHECK(run.err.empty());
    CHECK(store.cli({"symbols", "--format", "csv", "--no-header"}).out
          == "600519.SH,2023-12-01,2024-07-31,161,tushare,pre_close_chain,false,,stock,\n");
  }
  SUBCASE("tushare with --adj-factor: dates in only one file are reported") {
    std::string factors = read_text(vendor("adj_factor_600519.SH.csv"));
    const auto line = factors.find("600519.SH,20240102,");
    factors.erase(line, factors.find('\n', line) + 1 - line);
    factors += "600519.SH,20230923,7.768\n";
    const auto factor_file = store.dir() / "adj_factor.csv";
    write_text(factor_file, factors);
    const auto path = vendor("stk_daily_600519.SH.csv");
    const auto run = store.cli({"import", "--adj-factor", factor_file.string(), path.string()});
    CHECK(run.status == 0);
    CHECK(run.out
          == path.string()
               + ": tushare, loaded 500 rows for 1 symbol, factors from --adj-factor, 6 steps; "
                 "as_of 2025-10-23\n");
    CHECK(run.err
          == path.string()
               + ": note: 1 bar has no adj_factor row (the first on 2024-01-02): their factors "
                 "follow the pre_close chain\n"
               + path.string() + ": note: 1 adj_factor row has no bar in this file: ignored\n");
    const auto bars = read_csv_text(
      store.cli({"bars", "600519.SH", "2023-12-29", "2024-01-03", "--raw", "--format", "csv"}).out);
    REQUIRE(bars.size() == 3);
    CHECK(bars[0].factor == 7.8576); // Tushare's own
    CHECK(bars[1].factor == 7.8576); // chained: pre_close(2024-01-02) == close(2023-12-29)
    CHECK(bars[2].factor == 7.8576);
  }
  SUBCASE("baostock: adjusted prices are refused unless --adjusted-input") {
    const auto path = vendor("baostock_000001.SZ.csv");
    const auto refused = store.cli({"import", path.string()});
    CHECK(refused.status == 1);
    CHECK(refused.err
          == "ashare: error: " + path.string()
               + ":2: adjustflag: the file holds forward-adjusted (qfq) prices (adjustflag 2); "
                 "ashare stores raw prices plus factors: export with adjustflag=3, or pass "
                 "--adjusted-input to store the prices as given\n");
    CHECK(store.cli({"symbols", "--names"}).out.empty());
    const auto run = store.cli({"import", "--adjusted-input", path.string()});
    CHECK(run.status == 0);
    CHECK(run.out
          == path.string()
               + ": baostock, loaded 14 rows for 1 symbol, skipped 46 suspended days, no factors "
                 "(1.0); as_of 2010-09-10\n");
    CHECK(store.cli({"symbols", "--format", "table"}).out.find("none, adjusted input")
          != std::string::npos);
  }
  SUBCASE("akshare: the symbol from the file name with its exchange, or --symbol") {
    const auto bare = store.dir() / "600519.csv";
    write_text(bare, read_text(vendor("akshare_600519.SH.csv")));
    const auto refused = store.cli({"import", bare.string()});
    CHECK(refused.status == 1);
    CHECK(refused.err
          == "ashare: error: " + bare.string()
               + ": the file name does not say the symbol with its exchange (six digits alone do "
                 "not name one): name the file like 600519.SH.csv or pass --symbol 600519.SH\n");
    const auto run = store.cli({"import", "--symbol", "600519.SH", bare.string()});
    CHECK(run.status == 0);
    CHECK(run.out.find(": akshare, loaded 28 rows for 1 symbol, no factors (1.0);")
          != std::string::npos);
    CHECK(run.err.find("note: AkShare files cannot say whether their prices are adjusted")
          != std::string::npos);
    const auto bars = read_csv_text(
      store.cli({"bars", "600519.SH", "2024-01-02", "2024-01-02", "--format", "csv"}).out);
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].volume == 3215600); // 32156 lots
    CHECK(bars[0].turnover == 5440082548.0);
  }
  SUBCASE("tdx: the .day file of 600000.SH") {
    const auto run = store.cli({"import", vendor("sh600000.day").string()});
    CHECK(run.status == 0);
    CHECK(run.out.find(": tdx, loaded 80 rows for 1 symbol") != std::string::npos);
    const auto bars = read_csv_text(
      store.cli({"bars", "600000.SH", "1999-11-10", "1999-11-10", "--format", "csv"}).out);
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].open == 29.5);
    CHECK(bars[0].close == 27.75);
    CHECK(bars[0].volume == 174085000);
  }
  SUBCASE("--format overrides detection, and a bad value is a usage error") {
    const auto wrong = store.cli({"import", "--format", "akshare", "--symbol", "600519.SH",
                                  vendor("tushare_daily_600519.SH.csv").string()});
    CHECK(wrong.status == 1);
    CHECK(wrong.err.find(":1: header: missing column \"日期\"") != std::string::npos);
    CHECK(store.cli({"import", "--format", "xls", "x.csv"}).status == 2);
  }
}

TEST_CASE("import CLI: a progress bar on a terminal, none in a pipe") {
  TestStore store;
  const auto file = data_dir() / ".." / ".." / "data" / "sample" / "tushare" / "600519.SH.csv";
  const std::string command =
    ashare_bin() + " --db '" + store.data_locator() + "' import " + file.string();
  const auto terminal = run_process({"/usr/bin/script", "-qec", command, "/dev/null"}, k_cli_timeout,
                                    {"HOME=" + store.dir().string(), "TERM=xterm"});
  REQUIRE(terminal.status == 0);
  CHECK(terminal.out.find("\rimport [##############################] ") != std::string::npos);
  CHECK(terminal.out.find("1,212 rows") != std::string::npos);
  const auto piped = store.cli({"import", file.string()});
  REQUIRE(piped.status == 0);
  CHECK(piped.err.find("import [") == std::string::npos);
}

} // namespace bb
