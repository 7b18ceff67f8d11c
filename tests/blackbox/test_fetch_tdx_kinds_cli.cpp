// `ashare fetch tdx` of indices and funds against the stand-in (D20, issue 44): 000300.SH from an
// index's bars (4 more bytes each, two pages of 800), its volume in lots stored x 100 and its
// factor 1; 510300.SH from TDX's real raw export, its factor stepping on its real ex-dates by its
// dividends, pre_close to 0.001 CNY; a made-up fund's category-11 split; the universe of a whole
// market run (the funds listed, D20's indices, no other index, no code D20 keeps out), --kind and
// --indices, and the usage errors of the options that choose it.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"
#include "tdx_standin.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using namespace bb;

namespace {

// Run `fetch tdx` against `hosts` at the instant `now`, with `extra_env` besides.
RunResult fetch_kinds(const TestStore& store, const std::string& hosts, const std::vector<std::string>& args,
                      const std::string& now, const std::vector<std::string>& extra_env = {}) {
  std::vector<std::string> argv{"--timeout", "5", "fetch", "tdx", "--pace", "0", "--hosts", hosts};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env{"ASHARE_NOW=" + now, "ASHARE_SZSE_URL=http://127.0.0.1:1/monthList"};
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  return store.cli(argv, k_cli_timeout, env);
}

std::vector<CsvBar> stored_kind_bars(const TestStore& store, const std::string& symbol, const std::string& from,
                                     const std::string& to) {
  const auto run = store.cli({"bars", symbol, from, to, "--format", "csv", "--raw", "--limit", "5000"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  return read_csv_text(run.out);
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream split(line);
  for (std::string cell; std::getline(split, cell, ',');) {
    cells.push_back(cell);
  }
  return cells;
}

// The stand-in's 000300.SH: Tushare's index_daily rows by ISO date: close and vol (lots).
std::map<std::string, std::pair<double, double>> index_rows() {
  std::ifstream in(data_dir() / "tdx_standin" / "index_000300.SH_2019-2022.csv");
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::pair<double, double>> out;
  while (std::getline(in, line)) {
    const auto cells = cells_of(line);
    out[cells[1]] = {std::stod(cells[2]), std::stod(cells[9])};
  }
  return out;
}

// The stand-in's 510300.SH: TDX's raw export by ISO date: close and volume (shares).
std::map<std::string, std::pair<double, double>> export_rows() {
  std::ifstream in(data_dir() / "tdx_standin" / "tdx_export_510300.SH_raw_zsh-a.txt", std::ios::binary);
  std::map<std::string, std::pair<double, double>> out;
  for (std::string line; std::getline(in, line);) {
    const auto cells = cells_of(line);
    if (cells.size() == 7 && cells[0].size() == 10 && cells[0][4] == '/') {
      const auto day = cells[0].substr(0, 4) + "-" + cells[0].substr(5, 2) + "-" + cells[0].substr(8, 2);
      out[day] = {std::stod(cells[4]), std::stod(cells[5])};
    }
  }
  return out;
}

// The days on which the factor of `bars` steps, with close[t-1] / step: the pre_close it implies.
std::map<std::string, double> steps_of(const std::vector<CsvBar>& bars) {
  std::map<std::string, double> out;
  for (std::size_t i = 1; i < bars.size(); ++i) {
    if (*bars[i].factor != *bars[i - 1].factor) {
      out[bars[i].date] = bars[i - 1].close / (*bars[i].factor / *bars[i - 1].factor);
    }
  }
  return out;
}

} // namespace

TEST_CASE("fetch tdx: 000300.SH from an index's bars: close within 0.001, volume lots x 100, factor 1") {
  TdxStandIn tdx;
  TestStore store;
  // 2019-01-02 .. 2022-12-30 and the 400 days before: two pages of 800 bars, each bar 4 bytes
  // longer than a stock's.
  const auto run = fetch_kinds(store, tdx.host(), {"--from", "2019-01-02", "000300.SH"}, "2022-12-30T16:00:00+08:00");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(run.out.find("972 bars, 1 symbol, 2 calls") != std::string::npos); // no ex-rights call
  const auto bars = stored_kind_bars(store, "000300.SH", "2019-01-02", "2022-12-30");
  const auto real = index_rows();
  REQUIRE(real.size() == 972);
  REQUIRE(bars.size() == real.size()); // every bar of both pages
  for (const auto& bar : bars) {
    INFO(bar.date);
    REQUIRE(real.count(bar.date) == 1);
    const auto [close, lots] = real.at(bar.date);
    CHECK(std::abs(bar.close - close) <= 0.001);
    CHECK(bar.volume == std::llround(static_cast<double>(static_cast<float>(lots))) * 100);
    CHECK(bar.factor == 1.0);
  }
  const auto symbols = store.cli({"symbols", "--format", "csv"});
  CHECK(symbols.out.find("000300.SH") != std::string::npos);
}

TEST_CASE("fetch tdx: 510300.SH over 2021-2022 steps exactly on 2021-01-18 and 2022-01-19 (D20)") {
  TdxStandIn tdx;
  TestStore store;
  const auto run = fetch_kinds(store, tdx.host(), {"--from", "2021-01-04", "510300.SH"}, "2022-12-30T16:00:00+08:00");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto bars = stored_kind_bars(store, "510300.SH", "2021-01-04", "2022-12-30");
  const auto real = export_rows();
  REQUIRE(bars.size() == 485);
  for (const auto& bar : bars) {
    INFO(bar.date);
    REQUIRE(real.count(bar.date) == 1);
    CHECK(bar.close == real.at(bar.date).first); // raw, to the last of its 3 decimals
    CHECK(bar.volume == std::llround(static_cast<double>(static_cast<float>(real.at(bar.date).second))));
  }
  // Each step is close[t-1] / pre_close[t], pre_close the close before less the dividend, to 0.001.
  const auto steps = steps_of(bars);
  REQUIRE(steps.size() == 2);
  CHECK(steps.count("2021-01-18") == 1);
  CHECK(steps.count("2022-01-19") == 1);
  CHECK(steps.at("2021-01-18") == doctest::Approx(5.526 - 0.072).epsilon(1e-12));
  CHECK(steps.at("2022-01-19") == doctest::Approx(4.881 - 0.075).epsilon(1e-12));
}

TEST_CASE("fetch tdx: a fund's category-11 split steps by its ratio (the stand-in's made-up 169999.SZ)") {
  TdxStandIn tdx;
  TestStore store;
  const auto run = fetch_kinds(store, tdx.host(), {"--from", "2023-01-17", "169999.SZ"}, "2023-12-29T16:00:00+08:00");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto bars = stored_kind_bars(store, "169999.SZ", "2023-01-17", "2023-12-29");
  REQUIRE(bars.size() > 200);
  const auto steps = steps_of(bars);
  REQUIRE(steps.size() == 1);
  REQUIRE(steps.count("2023-06-15") == 1);
  std::size_t at = 0;
  while (bars[at].date != "2023-06-15") {
    ++at;
  }
  CHECK(*bars[at].factor / *bars[at - 1].factor == doctest::Approx(3.0).epsilon(1e-12));
}

TEST_CASE("fetch tdx: the whole market takes the funds listed and D20's indices, nothing D20 keeps out") {
  TdxStandIn tdx;
  TestStore store;
  const auto run = fetch_kinds(store, tdx.host(), {"--from", "2022-12-26"}, "2022-12-30T16:00:00+08:00");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  // 3 stocks, 2 funds and D20's 8 indices asked (000300.SH the one the stand-in has bars of).
  CHECK(run.out.find("fetched 5 days (2022-12-26..2022-12-30), 20 bars, 13 symbols") != std::string::npos);
  const auto symbols = store.cli({"symbols", "--format", "csv"});
  for (const auto* symbol : {"000001.SZ", "600519.SH", "000300.SH", "510300.SH"}) {
    CHECK_MESSAGE(symbols.out.find(symbol) != std::string::npos, symbol);
  }
  // Listed, but an index not asked for, a REIT, TDX's sector index and a B share.
  for (const auto* code : {"000010", "508000", "880023", "200002"}) {
    CHECK_MESSAGE(symbols.out.find(code) == std::string::npos, code);
  }
  CHECK(stored_kind_bars(store, "000300.SH", "2022-12-26", "2022-12-30").size() == 5);
  // verify asks for the stored index by name (no list names it) and the funds listed: they agree.
  const auto verify = store.cli({"verify", "--against", "tdx", "--hosts", tdx.host(), "--pace", "0"}, k_cli_timeout,
                                {"ASHARE_NOW=2022-12-30T16:00:00+08:00"});
  CHECK_MESSAGE(verify.status == 0, verify.err);
  CHECK(verify.err.find("verify against tdx 2022-12-26..2022-12-30: 6 symbols, 20 bars: they agree") != std::string::npos);
}

TEST_CASE("fetch tdx: --kind and --indices choose the universe; ASHARE_INDICES too") {
  TdxStandIn tdx;
  const std::string now = "2022-12-30T16:00:00+08:00";
  SUBCASE("--kind index --indices: those indices alone, no list asked") {
    TestStore store;
    const auto run = fetch_kinds(store, tdx.host(), {"--from", "2022-12-26", "--kind", "index", "--indices", "000010.SH, 000300.SH"}, now);
    REQUIRE_MESSAGE(run.status == 0, run.err);
    CHECK(run.out.find("5 bars, 2 symbols, 2 calls") != std::string::npos);
    const auto symbols = store.cli({"symbols", "--format", "csv"});
    CHECK(symbols.out.find("000300.SH") != std::string::npos);
    CHECK(symbols.out.find("510300.SH") == std::string::npos);
    CHECK(symbols.out.find("600519.SH") == std::string::npos);
  }
  SUBCASE("--kind fund: the funds listed alone") {
    TestStore store;
    const auto run = fetch_kinds(store, tdx.host(), {"--from", "2022-12-26", "--kind", "fund"}, now);
    REQUIRE_MESSAGE(run.status == 0, run.err);
    CHECK(run.out.find("5 bars, 2 symbols") != std::string::npos); // 510300.SH and 169999.SZ
    const auto symbols = store.cli({"symbols", "--format", "csv"});
    CHECK(symbols.out.find("510300.SH") != std::string::npos);
    CHECK(symbols.out.find("000300.SH") == std::string::npos);
    CHECK(symbols.out.find("600519.SH") == std::string::npos);
  }
  SUBCASE("ASHARE_INDICES names the indices in place of D20's eight") {
    TestStore store;
    const auto run = fetch_kinds(store, tdx.host(), {"--from", "2022-12-26", "--kind", "index"}, now,
                                 {"ASHARE_INDICES=000300.SH"});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    CHECK(run.out.find("5 bars, 1 symbol, 1 call") != std::string::npos);
  }
}

TEST_CASE("fetch tdx: options that cannot choose a universe are usage errors, exit 2") {
  TdxStandIn tdx;
  TestStore store;
  const std::string now = "2022-12-30T16:00:00+08:00";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--indices", "600519.SH"}, "600519.SH is not an index"},
      {{"--indices", "000300"}, "--indices"},
      {{"--kind", "stock,bond"}, "invalid kind \"bond\""},
      {{"--kind", "fund", "510300.SH"}, "a fetch naming symbols takes them whatever their kind"},
      {{"--indices", "000300.SH", "510300.SH"}, "--indices"},
      {{"508000.SH"}, "508000.SH is a REIT: ashare keeps it out (D20)"},
      {{"--members", "000300.SH"}, "--members"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args.front());
    const auto run = fetch_kinds(store, tdx.host(), args, now);
    CHECK(run.status == 2);
    CHECK_MESSAGE(run.err.find(message) != std::string::npos, run.err);
  }
  const auto env = fetch_kinds(store, tdx.host(), {}, now, {"ASHARE_INDICES=000300.SH,399001"});
  CHECK(env.status == 2);
  CHECK(env.err.find("ASHARE_INDICES or indices") != std::string::npos);
}
