// Issue 5: factors from the pre_close chain and from Tushare adj_factor files, checked on the real
// Tushare factors of tests/data/vendor/ (projected from shared/data/real/tushare_stk_factor_bancob/).
#include "testutil.hpp"

#include "core/import/factors.hpp"
#include "core/import/importer.hpp"
#include "core/import/vendor_formats.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace ashare;
using test::date;

namespace {

std::filesystem::path factors_vendor(const std::string& name) {
  return test::data_dir() / "vendor" / name;
}

import::ParsedFile tushare_file(const std::string& name) {
  std::ifstream in(factors_vendor(name), std::ios::binary);
  auto file = import::parse_tushare_daily(in);
  REQUIRE(file.ok());
  import::sort_by_symbol_and_date(*file);
  return std::move(*file);
}

import::AdjFactorTable adj_factors(const std::string& name) {
  std::ifstream in(factors_vendor(name), std::ios::binary);
  auto table = import::parse_adj_factor_csv(in);
  REQUIRE(table.ok());
  return std::move(*table);
}

import::ParsedRow row(const char* iso, double close, std::optional<double> pre_close) {
  import::ParsedRow out;
  out.symbol = "600519.SH";
  out.bar.trade_date = date(iso);
  out.bar.close = close;
  out.pre_close = pre_close;
  return out;
}

double row_factor(const import::ParsedFile& file, const char* iso) {
  for (const auto& r : file.rows) {
    if (r.bar.trade_date == date(iso)) {
      return r.bar.factor;
    }
  }
  FAIL("no row on " << iso);
  return 0;
}

} // namespace

TEST_CASE("import::chain_factors") {
  std::vector<import::ParsedRow> rows{
    row("2024-01-02", 10.0, 9.8), row("2024-01-03", 11.0, 10.0), // no event
    row("2024-01-04", 10.0, 10.0),                                // ex-date: prev close 11
    row("2024-01-05", 10.5, std::nullopt),                        // no pre_close: no event
  };
  const auto events = import::chain_factors(rows, 2.0);
  CHECK(events == 1);
  CHECK(rows[0].bar.factor == 2.0);
  CHECK(rows[1].bar.factor == 2.0);            // exactly: the ratio 10/10 is 1
  CHECK(rows[2].bar.factor == 2.0 * (11.0 / 10.0));
  CHECK(rows[3].bar.factor == rows[2].bar.factor);
  // The ratio is taken first, so days without an event keep the factor bit for bit:
  // (2.2 * 62.05) / 62.05 is not 2.2 in doubles, 2.2 * (62.05 / 62.05) is.
  std::vector<import::ParsedRow> quiet{row("2024-01-02", 62.05, std::nullopt),
                                       row("2024-01-03", 62.05, 62.05)};
  CHECK(import::chain_factors(quiet, 2.2) == 0);
  CHECK(quiet[1].bar.factor == 2.2);
  domain::Bar previous;
  previous.close = 20.0;
  previous.factor = 3.0;
  CHECK(import::chain_start(previous, row("2024-01-08", 19.0, 19.0)) == 3.0 * (20.0 / 19.0));
}

// The brief: without an adj_factor file the factor is derived from the pre_close chain, which
// gives the same forward-adjusted prices as Tushare's own factor up to its rounding noise.
TEST_CASE("import: the pre_close chain reproduces Tushare's forward adjustment") {
  for (const auto* symbol : {"600519.SH", "600036.SH", "002594.SZ"}) {
    CAPTURE(symbol);
    auto file = tushare_file(std::string("stk_daily_") + symbol + ".csv");
    const auto table = adj_factors(std::string("adj_factor_") + symbol + ".csv");
    const auto events = import::chain_factors(file.rows, 1.0);
    CHECK(events >= 2); // every symbol has at least two ex-dates in 2023-09 .. 2025-10
    const double chain_latest = file.rows.back().bar.factor;
    const double tushare_latest =
      table.factors.at({symbol, file.rows.back().bar.trade_date.yyyymmdd()});
    double worst = 0;
    for (const auto& r : file.rows) {
      const double tushare = table.factors.at({symbol, r.bar.trade_date.yyyymmdd()});
      const double ours = r.bar.close * r.bar.factor / chain_latest;
      const double theirs = r.bar.close * tushare / tushare_latest;
      const double relative = std::abs(ours / theirs - 1);
      worst = std::max(worst, relative);
      if (r.bar.trade_date != date("2024-06-25")) {
        // Tushare's factors carry 4-5 significant digits.
        CHECK(relative < 1e-4);
      }
    }
    // 2024-06-25 is Tushare's noise (e.g. 1.025 -> 1.0252 -> 1.025 with no corporate action).
    CHECK(worst < 2.5e-4);
  }
}

TEST_CASE("import::join_adj_factors") {
  auto file = tushare_file("stk_daily_600519.SH.csv");
  auto table = adj_factors("adj_factor_600519.SH.csv");
  SUBCASE("every bar has its factor") {
    const auto join = import::join_adj_factors(file, table);
    CHECK(join.bars_without_factor == 0);
    CHECK(join.factors_without_bar == 0);
    CHECK(row_factor(file, "2023-12-19") == 7.768);
  }
  SUBCASE("dates in only one file are handled and counted") {
    // Drop the factor of the ex-date 2023-12-20 and of the first day; add one for a day
    // without a bar.
    table.factors.erase({"600519.SH", 20231220});
    table.factors.erase({"600519.SH", 20230925});
    table.factors[{"600519.SH", 20230923}] = 7.0;
    const auto join = import::join_adj_factors(file, table);
    CHECK(join.bars_without_factor == 2);
    CHECK(join.first_bar_without_factor == date("2023-09-25"));
    CHECK(join.factors_without_bar == 1);
    // The first day takes the chain backwards from 2023-09-26 (no event: the same factor).
    CHECK(row_factor(file, "2023-09-25") == 7.768);
    // The ex-date takes the chain forwards: 7.768 * close(2023-12-19) / pre_close(2023-12-20).
    CHECK(row_factor(file, "2023-12-20") == doctest::Approx(7.768 * (1675.0 / 1655.89)).epsilon(1e-12));
  }
  SUBCASE("a table without the symbol is reported") {
    import::AdjFactorTable other;
    other.factors[{"600036.SH", 20240102}] = 1.0;
    const auto join = import::join_adj_factors(file, other);
    CHECK(join.symbols_without_factors == std::vector<std::string>{"600519.SH"});
  }
}

TEST_CASE("import::import_file --adj-factor: Tushare's factors are stored as given") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "ashare.db");
  const auto table = adj_factors("adj_factor_600519.SH.csv");
  import::ImportOptions options;
  options.adj_factors = &table;
  const auto report = import::import_file(store, factors_vendor("stk_daily_600519.SH.csv"), options);
  REQUIRE(report.ok());
  CHECK(report->committed);
  CHECK(report->factor_origin == import::FactorOrigin::adj_factor);
  const auto bars =
    store.load_bars("600519.SH", date("2023-09-25"), date("2025-10-23"), domain::SortOrder::asc, 1000);
  REQUIRE(bars.size() == 500);
  CHECK(bars.front().factor == 7.768);
  CHECK(bars.back().factor == 8.305);
  CHECK(store.find_symbol("600519.SH")->factor_origin == "adj_factor");

  SUBCASE("a later chain-derived import of the same symbol would mix scales and is refused") {
    const auto before = test::dump_store(dir / "ashare.db");
    const auto mixed = import::import_file(store, factors_vendor("tushare_daily_600519.SH.csv"), {});
    REQUIRE(mixed.ok());
    CHECK_FALSE(mixed->committed);
    REQUIRE(mixed->refusal.has_value());
    CHECK(mixed->refusal->message.find("factors came from adj_factor, and this file's come from "
                                       "pre_close_chain")
          != std::string::npos);
    CHECK(test::dump_store(dir / "ashare.db") == before);
  }
}

TEST_CASE("import::parse_adj_factor_csv errors name the line") {
  std::istringstream missing("ts_code,trade_date\n600519.SH,20240102\n");
  CHECK(import::parse_adj_factor_csv(missing).error().message
        == "1: header: missing column \"adj_factor\" (a Tushare adj_factor file has ts_code, "
           "trade_date, adj_factor)");
  std::istringstream bad("ts_code,trade_date,adj_factor\n600519.SH,20240102,x\n");
  CHECK(import::parse_adj_factor_csv(bad).error().message == "2: adj_factor: \"x\" is not a number");
  std::istringstream twice(
    "ts_code,trade_date,adj_factor\n600519.SH,20240102,1\n600519.SH,20240102,1\n");
  CHECK(import::parse_adj_factor_csv(twice).error().message
        == "3: trade_date: duplicate row for 600519.SH on 2024-01-02");
}
