// Issue 5 §2 on the command line: `import --format ... --adj-factor ... --adjusted-input
// --symbol` on the real extracts of tests/data/vendor/, and the progress bar on a terminal; D20's
// indices and funds (issue 44): units by kind, tdx-text, the codes kept out.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"
#include "support/tdx_export.hpp"

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

TEST_CASE("import CLI: indices and funds, with D20's units and kinds") {
  TestStore store;
  auto raw_bars = [&store](const std::string& symbol) {
    return read_csv_text(
      store.cli({"bars", symbol, "1990-01-01", "2030-12-31", "--raw", "--format", "csv"}).out);
  };
  SUBCASE("tdx-text: the raw export of 510300.SH, detected, equals its rows") {
    const auto path = store.dir() / "SH#510300.txt"; // TDX's own name for it
    const auto text = read_text(vendor("tdx_text_510300.SH_raw.txt"));
    write_text(path, text);
    const auto run = store.cli({"import", path.string()});
    CHECK(run.status == 0);
    CHECK(run.err.empty());
    CHECK(run.out
          == path.string()
               + ": tdx-text, loaded 3003 rows for 1 symbol, no factors (1.0); as_of 2024-09-30\n");
    const auto rows = ashare::test::tdx_export_rows(text);
    const auto bars = raw_bars("510300.SH");
    REQUIRE(bars.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      INFO(rows[i][0]);
      CHECK(bars[i].date == rows[i][0].substr(0, 4) + "-" + rows[i][0].substr(5, 2) + "-"
                              + rows[i][0].substr(8, 2));
      CHECK(bars[i].open == std::stod(rows[i][1]));
      CHECK(bars[i].high == std::stod(rows[i][2]));
      CHECK(bars[i].low == std::stod(rows[i][3]));
      CHECK(bars[i].close == std::stod(rows[i][4]));
      CHECK(bars[i].volume == std::stoll(rows[i][5]));
      CHECK(bars[i].turnover == std::stod(rows[i][6]));
    }
  }
  SUBCASE("tdx-text: the 后复权 export is refused, and --symbol names an export's symbol") {
    const auto path = vendor("tdx_text_510300.SH_hfq.txt");
    const auto refused = store.cli({"import", "--symbol", "510300.SH", path.string()});
    CHECK(refused.status == 1);
    CHECK(refused.err
          == "ashare: error: " + path.string()
               + ":1: title: the export holds 后复权 (backward-adjusted) prices; ashare keeps raw "
                 "prices and factors (D8): export the bars again from TDX choosing 不复权\n");
    CHECK(store.cli({"symbols", "--names"}).out.empty());
    const auto unnamed = store.cli({"import", "--format", "tdx-text", path.string()});
    CHECK(unnamed.status == 1);
    CHECK(unnamed.err.find("the file name does not say the symbol") != std::string::npos);
  }
  SUBCASE("tdx .day: an index's volume in lots, a fund's prices in 0.001") {
    const auto index = store.cli({"import", vendor("sh000001.day").string()});
    CHECK(index.status == 0);
    CHECK(index.out.find(": tdx, loaded 323 rows for 1 symbol, no factors (1.0);")
          != std::string::npos);
    const auto index_bars = raw_bars("000001.SH");
    REQUIRE(index_bars.size() == 323);
    const auto day = std::find_if(index_bars.begin(), index_bars.end(),
                                  [](const CsvBar& bar) { return bar.date == "2018-01-02"; });
    REQUIRE(day != index_bars.end());
    CHECK(day->volume == 20227886000); // 202278860 lots, as Tushare's vol that day
    CHECK(day->close == 3348.33);
    // No real fund .day is in the shared data: this one is built from the first 20 rows of TDX's
    // raw text export of 510300.SH (ashare::test::fund_day_from_export_rows).
    auto rows = ashare::test::tdx_export_rows(read_text(vendor("tdx_text_510300.SH_raw.txt")));
    rows.resize(20);
    const auto fund_day = store.dir() / "sh510300.day";
    write_text(fund_day, ashare::test::fund_day_from_export_rows(rows));
    const auto fund = store.cli({"import", fund_day.string()});
    CHECK(fund.status == 0);
    const auto fund_bars = raw_bars("510300.SH");
    REQUIRE(fund_bars.size() == 20);
    CHECK(fund_bars[0].date == "2012-05-28");
    CHECK(fund_bars[0].open == 2.551);
    CHECK(fund_bars[0].close == 2.604);
    CHECK(fund_bars[0].volume == 1277518769);
    CHECK(fund_bars[0].turnover == 3285755392.0);
  }
  SUBCASE("tushare index_daily: exact units (D12), factor 1") {
    const auto path = vendor("tushare_index_daily_000300.SH.csv");
    const auto run = store.cli({"import", path.string()});
    CHECK(run.status == 0);
    CHECK(run.out
          == path.string()
               + ": tushare, loaded 972 rows for 1 symbol, no factors (1.0); as_of 2022-12-30\n");
    const auto bars = raw_bars("000300.SH");
    REQUIRE(bars.size() == 972);
    CHECK(bars[0].date == "2005-01-04");
    CHECK(bars[0].open == 994.769);
    CHECK(bars[0].close == 982.794);
    CHECK(bars[0].volume == 741286894);
    CHECK(bars[0].turnover == 4431977418.0);
    for (const auto& bar : bars) {
      CHECK(bar.factor == 1.0);
    }
    const auto sse = store.cli({"import", vendor("tushare_index_daily_000001.SH_2018.csv").string()});
    CHECK(sse.status == 0);
    const auto sse_bars = raw_bars("000001.SH");
    REQUIRE(sse_bars.size() == 243);
    CHECK(sse_bars[0].close == 3348.3259);
    CHECK(sse_bars[0].volume == 20227886000);
    CHECK(sse_bars[0].turnover == 227788461100.0);
  }
  SUBCASE("a REIT's row is refused naming D20; a REIT's .day file is refused whole") {
    const auto path = store.dir() / "fund_daily.csv";
    write_text(path, "ts_code,trade_date,open,high,low,close,pre_close,vol,amount\n"
                     "510300.SH,20240102,3.4,3.5,3.3,3.45,3.4,100,345\n"
                     "508000.SH,20240102,3.4,3.5,3.3,3.45,3.4,100,345\n");
    const auto refused = store.cli({"import", path.string()});
    CHECK(refused.status == 1);
    CHECK(refused.err
          == path.string() + ":3: symbol: 508000.SH is a REIT: ashare keeps it out (D20)\n"
               + "ashare: error: " + path.string()
               + ": nothing imported (use --skip-invalid to load the valid rows)\n");
    CHECK(store.cli({"symbols", "--names"}).out.empty());
    const auto reit_day = store.dir() / "sh508000.day";
    write_text(reit_day, read_text(vendor("sh600000.day")));
    const auto whole = store.cli({"import", reit_day.string()});
    CHECK(whole.status == 1);
    CHECK(whole.err
          == "ashare: error: " + reit_day.string()
               + ": 508000.SH is a REIT: ashare keeps it out (D20)\n");
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
