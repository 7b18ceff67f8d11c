// `ashare fetch tushare` of D20's funds and indices against the stand-in Tushare server (issue
// 44): an index is Tushare's `index_daily` rows exactly, a fund's factor follows `fund_adj` or
// else the pre_close chain of `fund_daily`, each kind is planned from its own ledger rows, and a
// kind the token may not call is left out with a warning.
#include "fixtures.hpp"
#include "process.hpp"
#include "tushare_standin.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>

using namespace bb;

namespace {

constexpr const char* k_end_2022 = "2022-12-30T16:00:00+08:00";

RunResult fetch_kinds(const TestStore& store,
                      const TushareStandIn& standin,
                      const std::vector<std::string>& args,
                      const std::string& now = k_end_2022) {
  std::vector<std::string> argv{"fetch", "tushare", "--pace", "0"};
  argv.insert(argv.end(), args.begin(), args.end());
  return store.cli(argv, k_cli_timeout,
                   {"ASHARE_TUSHARE_TOKEN=" + std::string(TushareStandIn::k_token), "ASHARE_TUSHARE_URL=" + standin.url(),
                    "ASHARE_NOW=" + now, "ASHARE_TUSHARE_WINDOW_MS=1000"});
}

std::vector<CsvBar> bars_of(const TestStore& store, const std::string& symbol, bool raw) {
  std::vector<std::string> args{"bars", symbol, "2021-01-01", "2022-12-31", "--format", "csv", "--limit", "5000"};
  if (raw) {
    args.push_back("--raw");
  }
  const auto run = store.cli(args);
  REQUIRE_MESSAGE(run.status == 0, run.err);
  return read_csv_text(run.out);
}

std::size_t calls_of(const nlohmann::json& log, const std::string& api) {
  std::size_t count = 0;
  for (const auto& entry : log) {
    count += entry["api_name"] == api ? 1 : 0;
  }
  return count;
}

// The stand-in's rows of `symbol` in `file` (Tushare's daily columns) dated within [from, to]
// (YYYYMMDD), by date: close, pre_close, vol, amount as written.
struct SourceRow {
  std::string close;
  std::string pre_close;
  std::string vol;
  std::string amount;
};
std::map<std::string, SourceRow> source_rows(const std::string& file, const std::string& symbol,
                                             const std::string& from, const std::string& to) {
  std::ifstream in(data_dir() / "tushare_standin" / file);
  std::string line;
  std::getline(in, line); // ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount
  std::map<std::string, SourceRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (auto comma = line.find(','); ; comma = line.find(',', start)) {
      cells.push_back(line.substr(start, comma - start));
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
    if (cells[0] == symbol && cells[1] >= from && cells[1] <= to) {
      const auto iso = cells[1].substr(0, 4) + "-" + cells[1].substr(4, 2) + "-" + cells[1].substr(6, 2);
      rows[iso] = {cells[5], cells[6], cells[9], cells[10]};
    }
  }
  return rows;
}

} // namespace

TEST_CASE("fetch tushare: 000300.SH is index_daily's rows exactly, volume lots x 100, turnover x 1000, factor 1") {
  TushareStandIn standin;
  TestStore store;
  const auto run = fetch_kinds(store, standin, {"--kind", "index", "--indices", "000300.SH", "--from", "2022-01-04"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto log = standin.log();
  CHECK(calls_of(log, "index_daily") == 1); // one call per index per 8,000 rows
  CHECK(calls_of(log, "daily") == 0);
  CHECK(calls_of(log, "fund_daily") == 0);
  const auto rows = source_rows("index_daily.csv", "000300.SH", "20220104", "20221230");
  const auto bars = bars_of(store, "000300.SH", true);
  REQUIRE(bars.size() == rows.size());
  REQUIRE(bars.size() == 242);
  for (const auto& bar : bars) {
    INFO(bar.date);
    const auto& row = rows.at(bar.date);
    CHECK(bar.close == std::stod(row.close));
    CHECK(bar.volume == std::llround(std::stod(row.vol) * 100));
    CHECK(bar.turnover == static_cast<double>(std::llround(std::stod(row.amount) * 1000)));
    CHECK(bar.factor == 1.0);
  }
  const auto symbols = store.cli({"symbols", "--format", "csv", "--kind", "index"});
  CHECK(symbols.out.find("000300.SH,2022-01-04,2022-12-30,242,tushare-pro,none,false,,index,沪深300") != std::string::npos);
}

TEST_CASE("fetch tushare: 510300.SH over 2021-2022, raw closes to 0.001 and the factor stepping on its ex-dates") {
  TushareStandIn standin;
  TestStore store;
  bool chain = true;
  SUBCASE("fund_adj refused: the pre_close chain of fund_daily, said once") {
    standin.control({{"no_permission", "fund_adj"}});
  }
  SUBCASE("fund_adj (made up in the stand-in): its steps") { chain = false; }
  const auto run = fetch_kinds(store, standin, {"--kind", "fund", "--from", "2021-01-04"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK((run.err.find("fund_adj") != std::string::npos) == chain);
  const auto rows = source_rows("fund_daily.csv", "510300.SH", "20210104", "20221230");
  const auto bars = bars_of(store, "510300.SH", true);
  REQUIRE(bars.size() == rows.size());
  std::vector<std::string> steps;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    INFO(bars[i].date);
    const auto& row = rows.at(bars[i].date);
    CHECK(std::abs(bars[i].close - std::stod(row.close)) < 0.0005);
    CHECK(bars[i].volume == std::llround(std::stod(row.vol) * 100));
    if (i > 0 && bars[i].factor != bars[i - 1].factor) {
      steps.push_back(bars[i].date);
      // D18's chain: factor[t] / factor[t-1] = close[t-1] / pre_close[t] (the made-up fund_adj
      // steps by the same ratio, rounded to its 4 decimals).
      const double ratio = std::stod(rows.at(bars[i - 1].date).close) / std::stod(row.pre_close);
      CHECK(std::abs(*bars[i].factor / *bars[i - 1].factor - ratio) < (chain ? 1e-12 : 1e-3));
    }
  }
  CHECK(steps == std::vector<std::string>{"2021-01-18", "2022-01-19"});
}

TEST_CASE("fetch tushare: each kind plans from its own ledger rows (D20)") {
  TushareStandIn standin;
  TestStore store;
  const auto stocks = fetch_kinds(store, standin, {"--kind", "stock", "--from", "2022-12-01"});
  REQUIRE_MESSAGE(stocks.status == 0, stocks.err);
  CHECK(calls_of(standin.log(), "fund_daily") == 0);
  CHECK(calls_of(standin.log(), "index_daily") == 0);
  standin.control({{"reset", true}});
  // A store of stocks only, as one fetched before D20: the funds and the index for the default
  // 250 open days, the stocks never again.
  const auto full = fetch_kinds(store, standin, {"--indices", "000300.SH"});
  REQUIRE_MESSAGE(full.status == 0, full.err);
  const auto log = standin.log();
  CHECK(calls_of(log, "daily") == 0);
  CHECK(calls_of(log, "fund_daily") == 250);
  CHECK(calls_of(log, "index_daily") == 1);
  CHECK(bars_of(store, "510300.SH", true).size() == 250);
  CHECK(bars_of(store, "000300.SH", true).size() == 250);
  CHECK(bars_of(store, "600519.SH", true).size() == 22);
  // Each kind judged by gaps from its own first ledger day (D20): the stocks from 2022-12-01, not
  // from the funds' and the index's first, 2021-12-22. What is missing is the stand-in's synthetic
  // 600001.SH's December alone (listed until 2023-06-30, its bars in 2023).
  const auto gaps = nlohmann::json::parse(store.cli({"gaps", "--format", "json"}).out);
  CHECK(gaps["summary"]["from"] == "2021-12-22");
  CHECK(gaps["summary"]["missing"] == 22);
  for (const auto& gap : gaps["gaps"]) {
    CHECK(gap["symbol"] == "600001.SH");
  }
  standin.control({{"reset", true}});
  const auto again = fetch_kinds(store, standin, {"--indices", "000300.SH"});
  CHECK_MESSAGE(again.status == 0, again.err);
  CHECK(again.out.find("up to date") != std::string::npos);
  // An index added later is planned from its own rows: 000001.SH's 2018 is no part of the window,
  // so it is asked over the window and answers nothing; 000300.SH is not asked again.
  standin.control({{"reset", true}});
  const auto added = fetch_kinds(store, standin, {"--indices", "000300.SH,000001.SH"});
  CHECK_MESSAGE(added.status == 0, added.err);
  CHECK(calls_of(standin.log(), "index_daily") == 1);
  for (const auto& entry : standin.log()) { // after it, the membership's index_weight (D20)
    if (entry["api_name"] == "index_daily") {
      CHECK(entry["params"]["ts_code"] == "000001.SH");
    }
  }
}

TEST_CASE("fetch tushare: a token refused index_daily warns once and stores the rest") {
  TushareStandIn standin({"--control", R"({"no_permission":"index_daily"})"});
  TestStore store;
  const auto run = fetch_kinds(store, standin, {"--from", "2022-12-01", "--indices", "000300.SH,000001.SH"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(run.err.find("may not call Tushare `index_daily`") != std::string::npos);
  CHECK(run.err.find("index_daily") == run.err.rfind("index_daily"));
  // The source's words quoted without their final full stop before "; " (Tushare's "。").
  CHECK(run.err.find("doc_id=108; the indices are left out of this run (D20)") != std::string::npos);
  CHECK(calls_of(standin.log(), "index_daily") == 1);
  CHECK(run.out.find("fetched 22 days (2022-12-01..2022-12-30)") != std::string::npos);
  CHECK(bars_of(store, "600519.SH", true).size() == 22);
  CHECK(bars_of(store, "510300.SH", true).size() == 22);
  CHECK(store.cli({"bars", "000300.SH", "2022-12-01", "2022-12-30"}).status != 0);
  // No run took the indices: 000300.SH, listed by index_basic, is judged as a symbol without a
  // listing (between its stored bars: none), not missing on every day (D20).
  const auto gaps = store.cli({"gaps", "000300.SH", "--format", "json"});
  CHECK(gaps.status == 0);
  CHECK(nlohmann::json::parse(gaps.out)["summary"]["symbols"] == 0);
}

TEST_CASE("fetch tushare: an index without a bar on the last completed day is asked again next run, exit 0") {
  TushareStandIn standin;
  TestStore store;
  // The stand-in's 000300.SH ends on 2022-12-30: on 2023-01-03 it is not yet published.
  const auto run = fetch_kinds(store, standin, {"--from", "2022-12-26", "--indices", "000300.SH"},
                               "2023-01-03T16:00:00+08:00");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(run.err.find("no bar of 000300.SH for 2023-01-03") != std::string::npos);
  CHECK(run.out.find("fetched 5 days (2022-12-26..2022-12-30)") != std::string::npos);
  standin.control({{"reset", true}});
  const auto again = fetch_kinds(store, standin, {"--indices", "000300.SH"}, "2023-01-03T16:00:00+08:00");
  CHECK_MESSAGE(again.status == 0, again.err);
  CHECK(calls_of(standin.log(), "index_daily") == 1);
  CHECK(calls_of(standin.log(), "daily") == 0);
}

TEST_CASE("fetch tushare: a run naming an index and a fund writes their rows as their kinds' (D20)") {
  TushareStandIn standin;
  TestStore store;
  const auto named = fetch_kinds(store, standin, {"510300.SH", "000300.SH", "--from", "2022-12-01"});
  REQUIRE_MESSAGE(named.status == 0, named.err);
  CHECK(bars_of(store, "000300.SH", true).size() == 22);
  standin.control({{"reset", true}});
  // The index's own rows plan it: held from 2022-12-01, not asked again (as stocks' rows, the
  // index would be planned for the default 250 days).
  const auto indices = fetch_kinds(store, standin, {"--kind", "index", "--indices", "000300.SH"});
  CHECK_MESSAGE(indices.status == 0, indices.err);
  CHECK(calls_of(standin.log(), "index_daily") == 0);
  // The fund's rows start its kind's ledger: its whole market is asked from 2022-12-01.
  standin.control({{"reset", true}});
  const auto funds = fetch_kinds(store, standin, {"--kind", "fund"});
  CHECK_MESSAGE(funds.status == 0, funds.err);
  CHECK(calls_of(standin.log(), "fund_daily") == 22);
}
