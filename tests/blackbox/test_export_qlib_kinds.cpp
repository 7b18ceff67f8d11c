// D20's qlib export of indices and funds, read as qlib's file storage reads it, through
// /usr/bin/python3 with numpy and pandas (qlib itself cannot be installed here): the real CSI 300
// (tests/data/vendor/tushare_index_daily_000300.SH.csv, Tushare `index_daily`) under
// features/sh000300, so that a workflow's `benchmark: SH000300` finds its closes and its daily
// return `$close/Ref($close,1)-1`; 510300.SH (TDX's raw text export) under features/sh510300;
// instruments/all.txt naming the stock only.
#include "fixtures.hpp"
#include "process.hpp"
#include "support/tdx_export.hpp"
#include "support/test_data.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <sstream>

namespace bb {
namespace {

namespace fs = std::filesystem;

fs::path qlib_kinds_vendor(const std::string& name) { return ashare::test::data_dir() / "vendor" / name; }

// What qlib's FileCalendarStorage, FileInstrumentStorage and FileFeatureStorage read: day.txt,
// all.txt (tab-separated), and a field's bin (little-endian float32, the first value the start
// index into the calendar). `$close/Ref($close,1)-1` is the series over the calendar divided by
// itself shifted one day. Prints "all CODE" per line of all.txt, "close DATE VALUE" per value
// that is not NaN, "fund DATE VALUE" likewise for the fund, and "ret DATE VALUE" per day of the
// window [argv[2], argv[3]].
const char* const k_qlib_reader = R"(
import sys, numpy as np, pandas as pd
root, first, last = sys.argv[1], sys.argv[2], sys.argv[3]
calendar = pd.to_datetime(pd.read_csv(root + "/calendars/day.txt", header=None)[0])
instruments = pd.read_csv(root + "/instruments/all.txt", sep="\t", header=None,
                          names=["inst", "start", "end"], dtype={"inst": str})
for inst in instruments["inst"]:
    print("all", inst)
def feature(code, field):
    data = np.fromfile(root + "/features/" + code + "/" + field + ".day.bin", dtype="<f")
    start = int(data[0])
    return pd.Series(data[1:], index=calendar[start:start + len(data) - 1])
close = feature("sh000300", "close")
for day, value in close.dropna().items():
    print("close", day.date(), "%.9g" % value)
for day, value in feature("sh510300", "close").dropna().items():
    print("fund", day.date(), "%.9g" % value)
ret = (close / close.shift(1) - 1).loc[first:last]
for day, value in ret.items():
    print("ret", day.date(), "%.9g" % value)
)";

// One row of the Tushare `index_daily` fixture: its close and pct_chg (percent), by date.
struct IndexRow {
  double close = 0;
  double pct_chg = 0;
};

std::map<std::string, IndexRow> index_daily_rows() {
  std::istringstream in(read_text(qlib_kinds_vendor("tushare_index_daily_000300.SH.csv")));
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "ts_code,trade_date,close,open,high,low,pre_close,change,pct_chg,vol,amount");
  std::map<std::string, IndexRow> out;
  while (std::getline(in, line)) {
    const auto fields = csv_fields(line);
    out[fields.at(1)] = {std::stod(fields.at(2)), std::stod(fields.at(8))};
  }
  return out;
}

// The reader's output: its lines split at spaces, by their first word.
std::map<std::string, std::vector<std::vector<std::string>>> by_tag(const std::string& out) {
  std::map<std::string, std::vector<std::vector<std::string>>> tagged;
  for (const auto& line : split_lines(out)) {
    auto cells = words(line);
    REQUIRE(!cells.empty());
    const auto tag = cells.front();
    cells.erase(cells.begin());
    tagged[tag].push_back(cells);
  }
  return tagged;
}

TEST_CASE("export qlib: the CSI 300 and a fund under features/, all.txt stocks only (D20)") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv"),
                qlib_kinds_vendor("tushare_index_daily_000300.SH.csv")});
  const auto fund_file = store.dir() / "SH#510300.txt"; // TDX's own name for its export
  write_text(fund_file, read_text(qlib_kinds_vendor("tdx_text_510300.SH_raw.txt")));
  const auto fund = store.cli({"import", fund_file.string()});
  REQUIRE_MESSAGE(fund.status == 0, describe(fund));
  const auto dir = store.dir() / "qlib";
  const auto exported = store.cli({"export", "--format", "qlib", dir.string()});
  REQUIRE_MESSAGE(exported.status == 0, describe(exported));

  // The fixture has no 2021 row: the window starts on its second day of 2022.
  const auto run = run_process({"/usr/bin/python3", "-c", k_qlib_reader, dir.string(),
                                "2022-01-05", "2022-12-30"});
  REQUIRE_MESSAGE(run.status == 0, describe(run));
  auto tagged = by_tag(run.out);

  CHECK(tagged["all"] == std::vector<std::vector<std::string>>{{"SH600519"}});

  // The index's closes, every stored day and no other, each float32 of the recorded close
  // (factor 1: adjusted = raw).
  const auto rows = index_daily_rows();
  REQUIRE(tagged["close"].size() == rows.size());
  for (const auto& cells : tagged["close"]) {
    CAPTURE(cells.at(0));
    REQUIRE(rows.contains(cells.at(0)));
    CHECK(std::stof(cells.at(1)) == static_cast<float>(rows.at(cells.at(0)).close));
  }

  // The benchmark's daily return: none NaN over the window, each the recorded pct_chg / 100
  // (pct_chg has 4 decimals: 5e-7 of a fraction, and float32 closes 1.2e-7 more).
  const auto& returns = tagged["ret"];
  CHECK(returns.size() == 241);
  for (const auto& cells : returns) {
    CAPTURE(cells.at(0));
    REQUIRE(cells.at(1) != "nan");
    REQUIRE(rows.contains(cells.at(0)));
    CHECK(std::fabs(std::stod(cells.at(1)) - rows.at(cells.at(0)).pct_chg / 100) < 1e-6);
  }

  // The fund's closes, as its export gives them (3 decimals, no factor step in the file).
  const auto fund_rows = ashare::test::tdx_export_rows(read_text(fund_file));
  const auto& fund_closes = tagged["fund"];
  REQUIRE(fund_closes.size() == fund_rows.size());
  CHECK(fund_closes.front().at(0) == "2012-05-28");
  CHECK(std::stof(fund_closes.front().at(1)) == 2.604F);
  CHECK(std::stof(fund_closes.back().at(1)) == static_cast<float>(std::stod(fund_rows.back()[4])));
}

} // namespace
} // namespace bb
