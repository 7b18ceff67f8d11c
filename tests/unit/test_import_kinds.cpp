// D20 on the import side: units by the symbol's kind (a TDX `.day` index's volume in lots, a fund's
// prices in 0.001), Tushare index_daily files exactly (D12), an index's factor 1 on every bar, and
// the codes D20 keeps out refused as bad rows. Real extracts from tests/data/vendor/.
#include "testutil.hpp"

#include "support/tdx_export.hpp"

#include "core/import/importer.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

using namespace ashare;
using test::date;

namespace {

std::filesystem::path kinds_fixture(const std::string& name) {
  return test::data_dir() / "vendor" / name;
}

std::vector<domain::Bar> kinds_bars(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("1990-01-01"), date("2099-12-31"), domain::SortOrder::asc,
                         100000);
}

const domain::Bar& kinds_bar_on(const std::vector<domain::Bar>& bars, const std::string& iso) {
  for (const auto& bar : bars) {
    if (bar.trade_date == date(iso)) {
      return bar;
    }
  }
  FAIL("no bar on " << iso);
  return bars.front();
}

// The rows of a Tushare index_daily CSV, by column name, read by hand (no importer code).
std::vector<std::map<std::string, std::string>> tushare_rows(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::istringstream header(line);
  for (std::string name; std::getline(header, name, ',');) {
    names.push_back(name);
  }
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::map<std::string, std::string> row;
    std::size_t i = 0;
    for (std::string cell; std::getline(cells, cell, ',') && i < names.size(); ++i) {
      row[names[i]] = cell;
    }
    rows.push_back(row);
  }
  return rows;
}

std::string iso_of(const std::string& tushare_date) {
  return tushare_date.size() == 8 ? tushare_date.substr(0, 4) + "-" + tushare_date.substr(4, 2) + "-"
                                      + tushare_date.substr(6, 2)
                                  : tushare_date;
}

struct KindsFixture {
  test::TempDir dir;
  std::filesystem::path db = dir / "ashare.db";
  store::SqliteBarStore store{db};

  Result<import::ImportReport> import_bytes(const std::string& name,
                                            const std::string& bytes,
                                            const import::ImportOptions& options = {}) {
    test::write_file(dir / name, bytes);
    return import::import_file(store, dir / name, options);
  }
};

std::string kinds_read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("D20: a TDX .day of an index stores its volume in lots x 100, factor 1") {
  KindsFixture f;
  const auto report = import::import_file(f.store, kinds_fixture("sh000001.day"), {});
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  REQUIRE(report->committed);
  CHECK(report->symbols == std::set<std::string>{"000001.SH"});
  const auto bars = kinds_bars(f.store, "000001.SH");
  REQUIRE(bars.size() == 323);
  // Record 1: 19901219, 9605, 9998, 9579, 9998 (0.01 CNY), amount 494000.0f, volume 1260 lots.
  CHECK(bars.front().trade_date == date("1990-12-19"));
  CHECK(bars.front().open == 96.05);
  CHECK(bars.front().close == 99.98);
  CHECK(bars.front().volume == 126000);
  CHECK(bars.front().turnover == 494000.0);
  for (const auto& bar : bars) {
    CHECK(bar.factor == 1.0);
  }
  // PROVENANCE.md: over 2018 the .day's volume equals Tushare index_daily's vol (lots) on every
  // day, and its close Tushare's to 2 decimals.
  const auto tushare = tushare_rows(kinds_fixture("tushare_index_daily_000001.SH_2018.csv"));
  REQUIRE(tushare.size() == 243);
  for (const auto& row : tushare) {
    const auto& bar = kinds_bar_on(bars, iso_of(row.at("trade_date")));
    INFO(row.at("trade_date"));
    CHECK(bar.volume == std::llround(std::stod(row.at("vol")) * 100));
    CHECK(std::abs(bar.close - std::stod(row.at("close"))) <= 0.0052 + 1e-9);
  }
}

TEST_CASE("D20: a TDX .day of a fund stores prices in 0.001, not 10x too large") {
  KindsFixture f;
  // No real fund .day is in the shared data: this one is built from the first 40 rows of TDX's
  // raw text export of 510300.SH (test_data.hpp says how).
  auto rows = test::tdx_export_rows(kinds_read(kinds_fixture("tdx_text_510300.SH_raw.txt")));
  rows.resize(40);
  const auto day = test::fund_day_from_export_rows(rows);
  REQUIRE(rows.size() == 40);
  const auto report = f.import_bytes("sh510300.day", day);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  REQUIRE(report->committed);
  const auto bars = kinds_bars(f.store, "510300.SH");
  REQUIRE(bars.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    INFO(rows[i][0]);
    CHECK(bars[i].open == std::stod(rows[i][1]));
    CHECK(bars[i].high == std::stod(rows[i][2]));
    CHECK(bars[i].low == std::stod(rows[i][3]));
    CHECK(bars[i].close == std::stod(rows[i][4]));
    CHECK(bars[i].volume == std::stoll(rows[i][5]));
    CHECK(bars[i].turnover == std::stod(rows[i][6]));
  }
  CHECK(bars.front().close == 2.604); // 2012-05-28
}

TEST_CASE("D20: Tushare index_daily files load exactly (D12), factor 1 on every bar") {
  KindsFixture f;
  SUBCASE("000300.SH, YYYY-MM-DD, fractional lots, close before open") {
    const auto path = kinds_fixture("tushare_index_daily_000300.SH.csv");
    const auto report = import::import_file(f.store, path, {});
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
    REQUIRE(report->committed);
    CHECK(report->format == import::SourceFormat::tushare);
    // The rows' pre_close chain would step at each gap between the extract's years: an index's
    // factor is 1 whatever the file gives.
    CHECK(report->factor_origin == import::FactorOrigin::none);
    CHECK(report->adjustment_events == 0);
    CHECK(f.store.find_symbol("000300.SH")->factor_origin == "none");
    const auto bars = kinds_bars(f.store, "000300.SH");
    const auto rows = tushare_rows(path);
    REQUIRE(rows.size() == 972);
    REQUIRE(bars.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      INFO(rows[i].at("trade_date"));
      CHECK(bars[i].trade_date == date(rows[i].at("trade_date")));
      CHECK(bars[i].open == std::stod(rows[i].at("open")));
      CHECK(bars[i].close == std::stod(rows[i].at("close")));
      CHECK(bars[i].volume == std::llround(std::stod(rows[i].at("vol")) * 100));
      CHECK(bars[i].turnover == static_cast<double>(std::llround(std::stod(rows[i].at("amount")) * 1000)));
      CHECK(bars[i].factor == 1.0);
    }
    // PROVENANCE.md's rows.
    const auto& first = kinds_bar_on(bars, "2005-01-04");
    CHECK(first.close == 982.794);
    CHECK(first.open == 994.769);
    CHECK(first.high == 994.769);
    CHECK(first.low == 980.658);
    CHECK(first.volume == 741286894);     // 7412868.94 lots
    CHECK(first.turnover == 4431977418.0); // 4431977.418 thousand CNY
    const auto& last = kinds_bar_on(bars, "2022-12-30");
    CHECK(last.close == 3871.6338);
    CHECK(last.volume == 7877327200);
    CHECK(last.turnover == 148295049382.0);
  }
  SUBCASE("000001.SH, YYYYMMDD") {
    const auto report =
      import::import_file(f.store, kinds_fixture("tushare_index_daily_000001.SH_2018.csv"), {});
    REQUIRE(report.ok());
    REQUIRE(report->committed);
    CHECK(report->rows_loaded == 243);
    const auto bars = kinds_bars(f.store, "000001.SH");
    const auto& first = kinds_bar_on(bars, "2018-01-02");
    CHECK(first.close == 3348.3259);
    CHECK(first.open == 3314.0307);
    CHECK(first.volume == 20227886000);
    CHECK(first.turnover == 227788461100.0);
  }
  SUBCASE("a volume that is not whole shares is refused naming its row (D12)") {
    const auto report = f.import_bytes(
      "index.csv", "ts_code,trade_date,close,open,high,low,pre_close,change,pct_chg,vol,amount\n"
                   "000300.SH,2005-01-04,982.794,994.769,994.769,980.658,1000.0,-17.206,-1.7206,"
                   "7412868.945,4431977.418\n");
    REQUIRE(report.ok());
    CHECK_FALSE(report->committed);
    REQUIRE(report->problems.size() == 1);
    CHECK(report->problems[0].line == 2);
    CHECK(report->problems[0].column == "volume");
    CHECK(report->problems[0].message
          == "\"7412868.945\" is not a whole number of shares after conversion");
  }
}

TEST_CASE("D20: an index's factor is 1 whatever a canonical file's factor column says") {
  KindsFixture f;
  const auto report = f.import_bytes(
    "mixed.csv", "symbol,trade_date,open,high,low,close,volume,turnover,factor\n"
                 "000300.SH,2024-01-02,3400,3410,3390,3405,100,1000,1.5\n"
                 "600519.SH,2024-01-02,1700,1710,1690,1705,100,1000,1.5\n");
  REQUIRE(report.ok());
  REQUIRE(report->committed);
  CHECK(kinds_bars(f.store, "000300.SH").front().factor == 1.0);
  CHECK(kinds_bars(f.store, "600519.SH").front().factor == 1.5);
}

TEST_CASE("D20: a row of a code D20 keeps out is refused as a bad row") {
  KindsFixture f;
  const std::string text = "ts_code,trade_date,open,high,low,close,pre_close,vol,amount\n"
                           "510300.SH,20240102,3.4,3.5,3.3,3.45,3.4,100,345\n"
                           "508000.SH,20240102,3.4,3.5,3.3,3.45,3.4,100,345\n"
                           "200002.SZ,20240102,3.4,3.5,3.3,3.45,3.4,100,345\n"
                           "600519.SH,20240102,1700,1710,1690,1705,1700,10,1700\n";
  SUBCASE("the file is refused, each such row named") {
    const auto report = f.import_bytes("fund_daily.csv", text);
    REQUIRE(report.ok());
    CHECK_FALSE(report->committed);
    REQUIRE(report->problems.size() == 2);
    CHECK(import::format_problem("f.csv", report->problems[0])
          == "f.csv:3: symbol: 508000.SH is a REIT: ashare keeps it out (D20)");
    CHECK(import::format_problem("f.csv", report->problems[1])
          == "f.csv:4: symbol: 200002.SZ is a B share: ashare keeps it out (D20)");
    CHECK(kinds_bars(f.store, "510300.SH").empty());
  }
  SUBCASE("--skip-invalid loads the rest") {
    import::ImportOptions options;
    options.skip_invalid = true;
    const auto report = f.import_bytes("fund_daily.csv", text, options);
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK(report->rows_skipped == 2);
    CHECK(report->symbols == std::set<std::string>{"510300.SH", "600519.SH"});
  }
  SUBCASE("a file of one kept-out symbol is refused whole") {
    const auto report = f.import_bytes("sh508000.day", kinds_read(kinds_fixture("sh600000.day")));
    REQUIRE_FALSE(report.ok());
    CHECK(report.error().message
          == (f.dir / "sh508000.day").string() + ": 508000.SH is a REIT: ashare keeps it out (D20)");
  }
}

TEST_CASE("D20: AkShare and baostock index files are read with stock units, stored as an index") {
  // Made-up rows in each source's own shape (neither records an index's units: D20 reads them as
  // a stock's): AkShare's 成交量 in lots, baostock's volume in shares, amounts in CNY.
  KindsFixture f;
  const auto akshare = f.import_bytes("000300.SH.csv",
                                      "日期,开盘,收盘,最高,最低,成交量,成交额,振幅,涨跌幅,涨跌额,换手率\n"
                                      "2022-01-04,4957.98,4917.77,4961.45,4874.45,115299744,265227690000.0,"
                                      "1.75,-0.34,-16.8,0.55\n");
  REQUIRE(akshare.ok());
  REQUIRE(akshare->committed);
  const auto index_bar = kinds_bars(f.store, "000300.SH").front();
  CHECK(index_bar.volume == 11529974400); // lots x 100, as a stock's
  CHECK(index_bar.turnover == 265227690000.0);
  CHECK(index_bar.factor == 1.0);
  CHECK(f.store.find_symbol("000300.SH")->kind == domain::Kind::index);
  const auto baostock = f.import_bytes(
    "sse.csv", "date,code,open,high,low,close,preclose,volume,amount,adjustflag,turn,tradestatus,pctChg,isST\n"
               "2022-01-04,sh.000001,3649.1510,3651.8924,3610.0922,3632.3327,3639.7754,40594968600,"
               "508808810000.0000,3,,1,-0.204482,0\n");
  REQUIRE(baostock.ok());
  REQUIRE(baostock->committed);
  const auto sse_bar = kinds_bars(f.store, "000001.SH").front();
  CHECK(sse_bar.volume == 40594968600); // shares, as a stock's
  CHECK(sse_bar.close == 3632.3327);
  CHECK(sse_bar.factor == 1.0);
  CHECK(f.store.find_symbol("000001.SH")->kind == domain::Kind::index);
}
