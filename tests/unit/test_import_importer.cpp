#include "testutil.hpp"

#include "core/import/importer.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace ashare;
using domain::SortOrder;
using test::date;

namespace {

constexpr const char* k_no_factor_header =
    "symbol,trade_date,open,high,low,close,volume,turnover\n";

// Three good rows of 600519.SH with factors 1 (lines 2-4 after test::k_canonical_header).
const std::string k_good = std::string(test::k_canonical_header)
                           + "600519.SH,2024-01-02,10,11,9,10.5,100,1050,0.5,1\n"
                             "600519.SH,2024-01-03,10.5,12,10,11,100,1100,4.7619,1\n"
                             "600519.SH,2024-01-04,11,11.5,10.8,11.2,100,1120,1.8182,1\n";

std::vector<domain::Bar> all_bars(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("1990-01-01"), date("2099-12-31"), SortOrder::asc, 100000);
}

struct ImporterFixture {
  test::TempDir dir;
  std::filesystem::path db = dir / "ashare.db";
  store::SqliteBarStore store{db};

  Result<import::ImportReport> import_file(const std::string& name,
                                           const std::string& text,
                                           import::ImportOptions options = {}) {
    const auto path = dir / name;
    test::write_file(path, text);
    return import::import_file(store, path, options);
  }
};

} // namespace

TEST_CASE("import::import_canonical_file: a good file") {
  ImporterFixture f;
  const auto report = f.import_file("good.csv", k_good, test::import_options(false, "tushare"));
  REQUIRE(report.ok());
  CHECK(report->committed);
  CHECK(report->rows_loaded == 3);
  CHECK(report->rows_skipped == 0);
  CHECK(report->problems.empty());
  CHECK(report->symbols == std::set<std::string>{"600519.SH"});
  CHECK(report->as_of == date("2024-01-04"));
  CHECK(f.store.load_dataset_info().source == "tushare");
  const auto bars = all_bars(f.store, "600519.SH");
  REQUIRE(bars.size() == 3);
  CHECK(bars[1].close == 11.0);
  CHECK(bars[1].change_pct == 4.7619); // given change_pct is kept as is
}

TEST_CASE("import: a bad row refuses the whole file and leaves the store unchanged") {
  ImporterFixture f;
  REQUIRE(f.import_file("good.csv", k_good, test::import_options(false, "first"))->committed);
  const auto before = test::dump_store(f.db);

  // Line 3 updates a stored bar, line 4 adds a new one, line 5 is bad: none of it may land.
  const std::string bad = std::string(test::k_canonical_header)
                          + "600519.SH,2024-01-02,10,11,9,10.75,100,1050,0.5,1\n"
                            "000001.SZ,2024-01-05,9,9.5,8.5,9.2,1000,9200,0,1\n"
                            "600519.SH,2024-01-05,11,10.5,10.8,11.2,100,1120,1.8182,1\n";
  const auto report = f.import_file("bad.csv", bad, test::import_options(false, "second"));
  REQUIRE(report.ok());
  CHECK_FALSE(report->committed);
  CHECK(report->rows_loaded == 0);
  REQUIRE(report->problems.size() == 1);
  CHECK(import::format_problem(f.dir / "bad.csv", report->problems[0])
        == (f.dir / "bad.csv").string() + ":4: high: high 10.5 is below max(open, close) 11.2");
  CHECK(test::dump_store(f.db) == before); // bars, symbols, as_of, source and generation
}

TEST_CASE("import: --skip-invalid leaves bad rows out and counts them") {
  ImporterFixture f;
  const std::string mixed = std::string(test::k_canonical_header)
                            + "600519.SH,2024-01-02,10,11,9,10.5,100,1050,0.5,1\n"
                              "600519.SH,2024-01-03,0,12,10,11,100,1100,4.7619,1\n"
                              "600519.SH,2024-01-04,11,11.5,10.8,11.2,-1,1120,1.8182,1\n"
                              "600519.SH,2024-01-05,11,11.5,10.8,11.2,100,1120,0,1\n";
  const auto report = f.import_file("mixed.csv", mixed, test::import_options(true, ""));
  REQUIRE(report.ok());
  CHECK(report->committed);
  CHECK(report->rows_loaded == 2);
  CHECK(report->rows_skipped == 2);
  REQUIRE(report->problems.size() == 2);
  CHECK(report->problems[0].line == 3);
  CHECK(report->problems[0].column == "open");
  CHECK(report->problems[1].line == 4);
  CHECK(report->problems[1].column == "volume");
  const auto bars = all_bars(f.store, "600519.SH");
  REQUIRE(bars.size() == 2);
  CHECK(bars[0].trade_date == date("2024-01-02"));
  CHECK(bars[1].trade_date == date("2024-01-05"));
  CHECK(report->as_of == date("2024-01-05"));
}

TEST_CASE("import: two rows for one (symbol, trade_date) in a file") {
  ImporterFixture f;
  const std::string twice = std::string(test::k_canonical_header)
                            + "600519.SH,2024-01-02,10,11,9,10.5,100,1050,0.5,1\n"
                              "000001.SZ,2024-01-02,9,9.5,8.5,9.2,1000,9200,0,1\n"
                              "600519.sh,2024-01-02,10,11,9,10.6,100,1050,0.5,1\n";
  SUBCASE("refuse the file") {
    const auto report = f.import_file("twice.csv", twice);
    REQUIRE(report.ok());
    CHECK_FALSE(report->committed);
    REQUIRE(report->problems.size() == 1);
    CHECK(report->problems[0].line == 4);
    CHECK(report->problems[0].column == "trade_date");
    CHECK(report->problems[0].message
          == "duplicate row for 600519.SH on 2024-01-02 (first on line 2)");
    CHECK(f.store.load_symbols().empty());
  }
  SUBCASE("with --skip-invalid, the first row is kept") {
    const auto report = f.import_file("twice.csv", twice, test::import_options(true, ""));
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK(report->rows_loaded == 2);
    CHECK(report->rows_skipped == 1);
    const auto bars = all_bars(f.store, "600519.SH");
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].close == 10.5);
  }
}

TEST_CASE("import: re-importing a file is idempotent") {
  ImporterFixture f;
  REQUIRE(f.import_file("good.csv", k_good, test::import_options(false, "tushare"))->committed);
  const auto once = test::dump_store(f.db, false);
  const auto as_of = f.store.load_dataset_info().as_of;
  const auto second = f.import_file("good.csv", k_good, test::import_options(false, "tushare"));
  REQUIRE(second->committed);
  CHECK(second->rows_loaded == 3);
  CHECK(test::dump_store(f.db, false) == once);
  CHECK(f.store.load_dataset_info().as_of == as_of);
  CHECK(f.store.load_dataset_info().source == "tushare");
}

TEST_CASE("import: a file without factors for a symbol with stored factors other than 1") {
  ImporterFixture f;
  const std::string no_factor = std::string(k_no_factor_header)
                                + "000001.SZ,2024-01-05,9,9.5,8.5,9.2,1000,9200\n"
                                  "600519.SH,2024-01-05,11,11.5,10.8,11.2,100,1120\n";

  SUBCASE("is refused when a stored factor is not 1") {
    REQUIRE(
        f.import_file("factors.csv", std::string(test::k_canonical_header)
                                         + "600519.SH,2024-01-03,10.5,12,10,11,100,1100,4.7619,1\n"
                                           "600519.SH,2024-01-04,5.6,6,5.5,5.9,200,1180,5.3571,2\n")
            ->committed);
    const auto before = test::dump_store(f.db);
    const auto report = f.import_file("no_factor.csv", no_factor);
    REQUIRE(report.ok());
    CHECK_FALSE(report->committed);
    REQUIRE(report->refusal.has_value());
    CHECK(report->refusal->line == 3);
    CHECK(report->refusal->column == "factor");
    CHECK(report->refusal->message
          == "the file has no factors, but the store holds factors other than 1 for "
             "600519.SH: importing it would rescale that history; add factors (a factor column, "
             "or --adj-factor FILE)");
    CHECK(test::dump_store(f.db) == before); // 000001.SZ of line 2 is not stored either
  }
  SUBCASE("is accepted when every stored factor is 1") {
    REQUIRE(f.import_file("good.csv", k_good)->committed);
    const auto report = f.import_file("no_factor.csv", no_factor);
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK_FALSE(report->refusal.has_value());
    CHECK(report->symbols == std::set<std::string>{"000001.SZ", "600519.SH"});
    CHECK(all_bars(f.store, "600519.SH").back().factor == 1.0);
  }
  SUBCASE("a file with factors may change them") {
    REQUIRE(f.import_file("good.csv", k_good)->committed);
    const auto report =
        f.import_file("factor2.csv", std::string(test::k_canonical_header)
                                         + "600519.SH,2024-01-05,5.6,6,5.5,5.9,200,1180,0,2\n");
    CHECK(report->committed);
    CHECK(f.store.find_symbol("600519.SH")->latest_factor == 2.0);
  }
}

TEST_CASE("import: change_pct computed when the file has none") {
  ImporterFixture f;

  SUBCASE("over the symbol's stored series, across files, in date order") {
    // The later days arrive first: their first bar has nothing before it yet.
    REQUIRE(f.import_file("late.csv", std::string(k_no_factor_header)
                                          + "600519.SH,2024-01-04,11,12,10,12,100,1200\n"
                                            "600519.SH,2024-01-05,12,13.5,11,13.2,100,1320\n")
                ->committed);
    auto bars = all_bars(f.store, "600519.SH");
    CHECK(bars[0].change_pct == 0.0); // a symbol's first bar
    CHECK(bars[1].change_pct == doctest::Approx(10.0).epsilon(1e-12));

    // An earlier day arrives: the derived change of 2024-01-04 now has a previous close.
    REQUIRE(f.import_file("early.csv", std::string(k_no_factor_header)
                                           + "600519.SH,2024-01-03,10,10,10,10,100,1000\n")
                ->committed);
    bars = all_bars(f.store, "600519.SH");
    REQUIRE(bars.size() == 3);
    CHECK(bars[0].change_pct == 0.0);
    CHECK(bars[1].change_pct == doctest::Approx(20.0).epsilon(1e-12)); // 12 / 10
    CHECK(bars[2].change_pct == doctest::Approx(10.0).epsilon(1e-12)); // 13.2 / 12
  }

  SUBCASE("a given change_pct is never overwritten by a later computation") {
    REQUIRE(f.import_file("given.csv", std::string(test::k_canonical_header)
                                           + "600519.SH,2024-01-04,11,12,10,12,100,1200,3.21,1\n")
                ->committed);
    REQUIRE(f.import_file("derived.csv", std::string(k_no_factor_header)
                                             + "600519.SH,2024-01-03,10,10,10,10,100,1000\n"
                                               "600519.SH,2024-01-05,12,13.5,11,13.2,100,1320\n")
                ->committed);
    const auto bars = all_bars(f.store, "600519.SH");
    REQUIRE(bars.size() == 3);
    CHECK(bars[0].change_pct == 0.0);
    CHECK(bars[1].change_pct == 3.21);
    CHECK(bars[2].change_pct == doctest::Approx(10.0).epsilon(1e-12));
  }

  SUBCASE("factors count: an ex-rights day without a real move is 0") {
    REQUIRE(
        f.import_file("factors.csv",
                      std::string("symbol,trade_date,open,high,low,close,volume,turnover,factor\n"
                                  "600519.SH,2024-01-03,10,10,10,10,100,1000,1\n"
                                  "600519.SH,2024-01-04,5,5,5,5,200,1000,2\n"
                                  "600519.SH,2024-01-05,5.5,5.5,5.5,5.5,200,1100,2\n"))
            ->committed);
    const auto bars = all_bars(f.store, "600519.SH");
    CHECK(bars[0].change_pct == 0.0);
    CHECK(bars[1].change_pct == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(bars[2].change_pct == doctest::Approx(10.0).epsilon(1e-12));
  }
}

TEST_CASE("import: change_pct of the real 000001.SZ fixture matches Tushare's pct_chg") {
  ImporterFixture f;
  const auto report = test::import_fixture(f.store, "jenny_000001.SZ.csv");
  CHECK(report.rows_loaded == 1212);
  CHECK(report.as_of == date("2024-12-31"));

  // pct_chg from Tushare `daily` for 000001.SZ (shared/data/real/tushare_daily_jenny, the source
  // of the fixture), on days whose pre_close equals the previous close: not ex-rights days, where
  // Tushare divides by the ex-rights pre_close while the fixture has no factors. Tushare rounds
  // to 4 decimals.
  const struct {
    const char* date;
    double pct_chg;
  } tushare[] = {
      {"2020-01-03", 1.8376},  {"2020-01-06", -0.6403}, {"2020-07-21", -1.6293},
      {"2021-01-04", -3.8263}, {"2021-02-26", -3.2141}, {"2022-03-07", -3.9791},
      {"2024-06-13", -0.7353}, {"2024-11-06", -0.8584}, {"2024-12-30", 1.0144},
      {"2024-12-31", -2.0921},
  };
  for (const auto& row : tushare) {
    CAPTURE(std::string_view(row.date));
    const auto bars =
        f.store.load_bars("000001.SZ", date(row.date), date(row.date), SortOrder::asc, 1);
    REQUIRE(bars.size() == 1);
    CHECK(std::abs(bars[0].change_pct - row.pct_chg) <= 0.00005 + 1e-9);
  }

  SUBCASE("the first bar is 0, not Tushare's 2.5532") {
    const auto first =
        f.store.load_bars("000001.SZ", date("2020-01-02"), date("2020-01-02"), SortOrder::asc, 1);
    REQUIRE(first.size() == 1);
    CHECK(first[0].change_pct == 0.0);
  }
  SUBCASE("an ex-rights day is measured against the raw previous close (no factors in the file)") {
    // 2024-06-14: close 10.18, previous close 10.8; Tushare's 0.9921 uses pre_close 10.08.
    const auto bars =
        f.store.load_bars("000001.SZ", date("2024-06-14"), date("2024-06-14"), SortOrder::asc, 1);
    REQUIRE(bars.size() == 1);
    CHECK(bars[0].change_pct == doctest::Approx(-5.7407).epsilon(1e-5));
  }
}

TEST_CASE("import::import_canonical_file: file-level errors") {
  ImporterFixture f;
  SUBCASE("an unreadable file") {
    const auto missing = f.dir / "missing.csv";
    const auto report = import::import_file(f.store, missing, {});
    REQUIRE_FALSE(report.ok());
    CHECK(report.error().code == ErrorCode::invalid_input);
    CHECK(report.error().message == missing.string() + ": cannot open the file");
  }
  SUBCASE("a bad header names the file and the line") {
    const auto report =
        f.import_file("header.csv", "symbol,trade_date,open,high,low,close,volume\n");
    REQUIRE_FALSE(report.ok());
    CHECK(report.error().code == ErrorCode::invalid_input);
    CHECK(report.error().message.starts_with((f.dir / "header.csv").string()
                                             + ":1: header: missing column \"turnover\""));
  }
  CHECK(f.store.load_symbols().empty());
}

TEST_CASE("import: the real fixtures load") {
  ImporterFixture f;
  const auto report = test::import_fixture(f.store, "bancob_600519.SH.csv");
  CHECK(report.rows_loaded == 500);
  CHECK(report.rows_skipped == 0);
  CHECK(report.symbols == std::set<std::string>{"600519.SH"});
  CHECK(report.as_of == date("2025-10-23"));
  const auto info = f.store.find_symbol("600519.SH");
  REQUIRE(info.has_value());
  CHECK(info->first_date == date("2023-09-25"));
  CHECK(info->bar_count == 500);
  // Vendor change_pct is kept: 2023-09-25 pct_change -0.8989.
  CHECK(all_bars(f.store, "600519.SH").front().change_pct == -0.8989);
}

namespace {

// A canonical file of `symbols` x `days` rows in the given order, prices following a walk.
std::string market_text(int symbols, int days, bool dates_descending, bool symbols_interleaved) {
  std::vector<std::string> lines;
  for (int s = 0; s < symbols; ++s) {
    for (int d = 0; d < days; ++d) {
      const auto day = domain::Date(test::date("2020-01-01").days() + std::chrono::days(d));
      const double close = 10 + s + (d % 17) * 0.01;
      lines.push_back(std::to_string(600000 + s) + ".SH," + day.iso() + "," + std::to_string(close)
                      + "," + std::to_string(close + 0.5) + "," + std::to_string(close - 0.5) + ","
                      + std::to_string(close) + ",1000,10000.5," + std::to_string(d % 3) + ","
                      + (d < days / 2 ? "1" : "1.25") + "\n");
    }
  }
  std::vector<std::size_t> order(lines.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  if (symbols_interleaved) { // row d of every symbol, then row d+1 ...
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return a % static_cast<std::size_t>(days) < b % static_cast<std::size_t>(days);
    });
  }
  if (dates_descending) {
    std::reverse(order.begin(), order.end());
  }
  std::string text = test::k_canonical_header;
  for (const auto i : order) {
    text += lines[i];
  }
  return text;
}

} // namespace

TEST_CASE("issue 11: rows in any order load the same store") {
  ImporterFixture sorted;
  const auto sorted_report = sorted.import_file("sorted.csv", market_text(7, 300, false, false));
  REQUIRE(sorted_report->committed);
  CHECK(sorted_report->adjustment_events == 7); // counted as the rows came, in date order
  for (const auto& [descending, interleaved] :
       std::vector<std::pair<bool, bool>>{{true, false}, {false, true}, {true, true}}) {
    CAPTURE(descending);
    CAPTURE(interleaved);
    ImporterFixture other;
    const auto report =
      other.import_file("other.csv", market_text(7, 300, descending, interleaved));
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK(report->rows_loaded == 7 * 300);
    CHECK(report->adjustment_events == 7); // one factor step per symbol, whatever the order
    CHECK(test::dump_store(other.db) == test::dump_store(sorted.db));
  }
}

TEST_CASE("issue 11: a new symbol's summary, written from the rows as they came, is what "
          "refresh_symbol finds") {
  ImporterFixture f;
  REQUIRE(f.import_file("market.csv", market_text(7, 300, false, true))->committed);
  // A second file adds to a symbol already stored (refresh_symbol) and brings a new one.
  REQUIRE(f.import_file("more.csv", std::string(test::k_canonical_header)
                                        + "600519.SH,2022-01-04,10,11,9,10.5,100,1050,0.5,1\n"
                                          "600519.SH,2022-01-05,10.5,12,10,11,100,1100,4.7619,2\n"
                                          "600003.SH,2022-01-04,10,11,9,10.5,100,1050,0.5,1.25\n")
              ->committed);
  const auto before = test::dump_store(f.db);
  {
    store::WriteTransaction transaction(f.store);
    for (const auto& info : f.store.load_symbols()) {
      f.store.refresh_symbol(info.symbol);
    }
    transaction.commit();
  }
  CHECK(test::dump_store(f.db) == before);
  CHECK(f.store.load_symbols().size() == 8);
}

TEST_CASE("issue 11: a bad or duplicate last row of a large file rolls every written row back") {
  ImporterFixture f;
  REQUIRE(f.import_file("first.csv", k_good)->committed);
  const auto before = test::dump_store(f.db);
  const auto good = market_text(20, 500, false, true); // 10,000 rows, written as they are read
  SUBCASE("a bad row") {
    const auto report =
      f.import_file("bad.csv", good + "600001.SH,2022-01-04,10,9,11,10,100,1000,0,1\n");
    REQUIRE(report.ok());
    CHECK_FALSE(report->committed);
    REQUIRE(report->problems.size() == 1);
    CHECK(report->problems[0].line == 10'002);
  }
  SUBCASE("a duplicate row, named with the line of the first") {
    const auto report =
      f.import_file("dup.csv", good + "600007.SH,2020-01-01,10,11,9,10,100,1000,0,1\n");
    REQUIRE(report.ok());
    CHECK_FALSE(report->committed);
    REQUIRE(report->problems.size() == 1);
    CHECK(report->problems[0].line == 10'002);
    CHECK(report->problems[0].message
          == "duplicate row for 600007.SH on 2020-01-01 (first on line 9)");
  }
  CHECK(test::dump_store(f.db) == before);
  CHECK(f.store.find_symbol("600001.SH") == std::nullopt);
}

namespace {

// A Tushare `daily` file of `symbols` x `days`: closes in cents, a dividend every 40 days (the
// pre_close below the previous close), rows in the order `order` asks: "grouped" (by symbol,
// newest first, as Tushare answers per symbol), "by_date" (every symbol of a date, then the next
// date: each symbol's rows come apart) or "shuffled". `first_day` shifts the dates.
std::string tushare_text(int symbols, int days, const std::string& order, int first_day = 0) {
  struct Row {
    int symbol, day;
    std::string line;
  };
  std::vector<Row> rows;
  for (int s = 0; s < symbols; ++s) {
    long close = 1000 + 37 * s; // cents
    for (int d = first_day; d < first_day + days; ++d) {
      const long pre_close = d % 40 == 39 ? close - 25 : close; // ex-dividend
      close = pre_close + ((d * 7 + s * 3) % 11) - 5;
      const auto day = domain::Date(test::date("2020-01-01").days() + std::chrono::days(d));
      const auto cents = [](long value) {
        return std::to_string(value / 100) + "." + (value % 100 < 10 ? "0" : "")
               + std::to_string(value % 100);
      };
      std::string yyyymmdd = day.iso();
      yyyymmdd.erase(std::remove(yyyymmdd.begin(), yyyymmdd.end(), '-'), yyyymmdd.end());
      rows.push_back({s, d,
                      std::to_string(600000 + s) + ".SH," + yyyymmdd + "," + cents(close) + ","
                        + cents(close + 10) + "," + cents(close - 10) + "," + cents(close) + ","
                        + cents(pre_close) + "," + cents(close - pre_close + 1000) + ",0.1,12.5,"
                        + "3456.789\n"});
    }
  }
  if (order == "grouped") {
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
      return a.symbol != b.symbol ? a.symbol < b.symbol : a.day > b.day;
    });
  } else if (order == "by_date") {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.day < b.day; });
  } else {
    std::mt19937 random(7);
    std::shuffle(rows.begin(), rows.end(), random);
  }
  std::string text = "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n";
  for (const auto& row : rows) {
    text += row.line;
  }
  return text;
}

} // namespace

TEST_CASE("issue 11: a Tushare file chains the same factors whatever the order of its rows") {
  // Grouped rows are chained in memory as they come; rows that come apart are chained at the end
  // from their pre_close read again: both give the same store, also continuing a stored chain.
  ImporterFixture grouped;
  auto report = grouped.import_file("a.csv", tushare_text(5, 120, "grouped"));
  REQUIRE(report.ok());
  REQUIRE(report->committed);
  CHECK(report->factor_origin == import::FactorOrigin::pre_close_chain);
  CHECK(report->adjustment_events == 5 * 3); // dividends on days 39, 79 and 119
  REQUIRE(grouped.import_file("b.csv", tushare_text(5, 80, "grouped", 120))->committed);
  const auto bars = all_bars(grouped.store, "600002.SH");
  REQUIRE(bars.size() == 200);
  CHECK(bars.front().factor == 1);
  CHECK(bars.back().factor != 1); // five dividends later
  for (const auto* order : {"by_date", "shuffled"}) {
    CAPTURE(order);
    ImporterFixture other;
    report = other.import_file("a.csv", tushare_text(5, 120, order));
    REQUIRE(report.ok());
    REQUIRE(report->committed);
    CHECK(report->adjustment_events == 5 * 3);
    REQUIRE(other.import_file("b.csv", tushare_text(5, 80, order, 120))->committed);
    CHECK(test::dump_store(other.db) == test::dump_store(grouped.db));
  }
}

TEST_CASE("issue 11: a Tushare file whose last row has no pre_close keeps factors of 1") {
  // Rows chained as they came get the file's factors (1) back when a later row ends the chain.
  std::string text = tushare_text(3, 60, "grouped");
  text += "600009.SH,20200301,10.00,10.10,9.90,10.00,,0.00,0.1,12.5,3456.789\n";
  ImporterFixture f;
  const auto report = f.import_file("a.csv", text);
  REQUIRE(report.ok());
  REQUIRE(report->committed);
  CHECK(report->factor_origin == import::FactorOrigin::none);
  CHECK(report->adjustment_events == 0);
  for (const auto* symbol : {"600000.SH", "600001.SH", "600002.SH", "600009.SH"}) {
    for (const auto& bar : all_bars(f.store, symbol)) {
      CHECK(bar.factor == 1);
    }
  }
  CHECK(f.store.find_symbol("600001.SH")->latest_factor == 1);
}
