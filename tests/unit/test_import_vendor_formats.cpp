// Issue 5: each vendor importer on real extracts (tests/data/vendor/, cut from shared/data/real/),
// comparing stored values with the source text converted by hand (D12), and on broken inputs.
#include "testutil.hpp"

#include "core/import/importer.hpp"
#include "core/import/vendor_formats.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <limits>
#include <sstream>

using namespace ashare;
using test::date;

namespace {

std::filesystem::path vendor(const std::string& name) {
  return test::data_dir() / "vendor" / name;
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const import::ParsedRow& row_on(const import::ParsedFile& file, const std::string& iso) {
  for (const auto& row : file.rows) {
    if (row.bar.trade_date == date(iso)) {
      return row;
    }
  }
  FAIL("no row on " << iso);
  return file.rows.front();
}

std::vector<domain::Bar> stored(store::BarStore& store, const std::string& symbol) {
  return store.load_bars(symbol, date("1990-01-01"), date("2099-12-31"), domain::SortOrder::asc,
                         100000);
}

struct VendorFixture {
  test::TempDir dir;
  std::filesystem::path db = dir / "ashare.db";
  store::SqliteBarStore store{db};

  Result<import::ImportReport> import_text(const std::string& name,
                                           const std::string& text,
                                           const import::ImportOptions& options = {}) {
    test::write_file(dir / name, text);
    return import::import_file(store, dir / name, options);
  }
};

} // namespace

TEST_CASE("import::convert_vendor_row: units are scaled in decimal (D12)") {
  import::VendorRow row;
  row.symbol = "600519.SH";
  row.trade_date = date("2024-12-31");
  row.open = *domain::parse_decimal("1525.4");
  row.high = *domain::parse_decimal("1545.0");
  row.low = *domain::parse_decimal("1522.01");
  row.close = *domain::parse_decimal("1524.0");
  row.volume = *domain::parse_decimal("39354.45");
  row.turnover = *domain::parse_decimal("8398945.449");
  const auto latest = date("2025-01-02");
  SUBCASE("tushare: lots and thousand CNY") {
    const auto parsed = std::get<import::ParsedRow>(
      import::convert_vendor_row(row, import::k_tushare_units, 2, latest));
    CHECK(parsed.bar.volume == 3935445);
    CHECK(parsed.bar.turnover == 8398945449.0);
    CHECK(parsed.bar.open == 1525.4);
  }
  SUBCASE("akshare: lots and CNY") {
    row.volume = *domain::parse_decimal("32156");
    row.turnover = *domain::parse_decimal("5440082548.0");
    const auto parsed = std::get<import::ParsedRow>(
      import::convert_vendor_row(row, import::k_akshare_units, 2, latest));
    CHECK(parsed.bar.volume == 3215600);
    CHECK(parsed.bar.turnover == 5440082548.0);
  }
  SUBCASE("baostock: shares and CNY") {
    row.volume = *domain::parse_decimal("58980712");
    row.turnover = *domain::parse_decimal("1063389304.1100");
    const auto parsed = std::get<import::ParsedRow>(
      import::convert_vendor_row(row, import::k_baostock_units, 2, latest));
    CHECK(parsed.bar.volume == 58980712);
    CHECK(parsed.bar.turnover == 1063389304.11);
  }
  SUBCASE("a volume that is not whole shares after conversion is a problem on its line") {
    row.volume = *domain::parse_decimal("39354.455");
    const auto problem =
      std::get<import::RowProblem>(import::convert_vendor_row(row, import::k_tushare_units, 7, latest));
    CHECK(problem.line == 7);
    CHECK(problem.column == "volume");
    CHECK(problem.message == "\"39354.455\" is not a whole number of shares after conversion");
  }
  SUBCASE("D16: a trade date after `latest` or before the first session is a problem") {
    for (const auto* day : {"2025-01-03", "1990-12-18", "9999-12-31"}) {
      CAPTURE(day);
      row.trade_date = date(day);
      const auto problem =
        std::get<import::RowProblem>(import::convert_vendor_row(row, import::k_tushare_units, 4, latest));
      CHECK(problem.column == "trade_date");
      CHECK(problem.message
            == std::string(day) + " is outside 1990-12-19 (the first session) to 2025-01-02 (today at UTC+8)");
    }
    row.trade_date = date("1990-12-19");
    CHECK(std::holds_alternative<import::ParsedRow>(
      import::convert_vendor_row(row, import::k_tushare_units, 4, latest)));
  }
  SUBCASE("D16: bounds apply to the converted value: 10^12 thousand CNY is 10^15 CNY") {
    row.turnover = *domain::parse_decimal("999999999999.999");
    CHECK(std::get<import::ParsedRow>(
            import::convert_vendor_row(row, import::k_tushare_units, 5, latest))
            .bar.turnover
          == 999999999999999.0);
    row.turnover = *domain::parse_decimal("1000000000000");
    const auto problem =
      std::get<import::RowProblem>(import::convert_vendor_row(row, import::k_tushare_units, 5, latest));
    CHECK(problem.column == "turnover");
    CHECK(problem.message == "turnover 1000000000000000 must be at least 0 and below 1000000000000000");
    row.turnover = *domain::parse_decimal("1e400");
    CHECK(std::get<import::RowProblem>(import::convert_vendor_row(row, import::k_tushare_units, 5, latest))
            .message
          == "turnover inf must be at least 0 and below 1000000000000000");
  }
}

TEST_CASE("import::parse_tushare_daily on a real Tushare daily extract") {
  std::ifstream in(vendor("tushare_daily_600519.SH.csv"), std::ios::binary);
  const auto file = import::parse_tushare_daily(in);
  REQUIRE(file.ok());
  CHECK(file->problems.empty());
  CHECK(file->rows.size() == 161);
  CHECK(file->has_change_pct);
  // Line 32: 600519.SH,20240619,1497.99,1504.0,1482.1,1501.0,1490.62,10.38,0.6964,41261.53,6167728.416
  const auto& row = row_on(*file, "2024-06-19");
  CHECK(row.line == 32);
  CHECK(row.symbol == "600519.SH");
  CHECK(row.bar.open == 1497.99);
  CHECK(row.bar.high == 1504.0);
  CHECK(row.bar.low == 1482.1);
  CHECK(row.bar.close == 1501.0);
  CHECK(row.pre_close == 1490.62);
  CHECK(row.bar.change_pct == 0.6964);
  CHECK(row.bar.volume == 4126153);        // 41261.53 lots
  CHECK(row.bar.turnover == 6167728416.0); // 6167728.416 thousand CNY
}

TEST_CASE("import::parse_akshare_hist on a real AkShare extract, with and without BOM") {
  auto text = read_bytes(vendor("akshare_600519.SH.csv"));
  for (const auto* prefix : {"", "\xef\xbb\xbf"}) {
    CAPTURE(std::string(prefix).size());
    std::istringstream in(prefix + text);
    const auto file = import::parse_akshare_hist(in, "600519.SH");
    REQUIRE(file.ok());
    CHECK(file->problems.empty());
    CHECK(file->rows.size() == 28);
    // 2024-01-02,1715.0,1685.01,1718.19,1678.1,32156,5440082548.0,2.32,-2.37,-40.99,0.26
    const auto& row = row_on(*file, "2024-01-02");
    CHECK(row.symbol == "600519.SH");
    CHECK(row.bar.open == 1715.0);
    CHECK(row.bar.close == 1685.01);
    CHECK(row.bar.high == 1718.19);
    CHECK(row.bar.low == 1678.1);
    CHECK(row.bar.volume == 3215600); // 32156 lots
    CHECK(row.bar.turnover == 5440082548.0);
    CHECK(row.bar.change_pct == -2.37);
    CHECK_FALSE(row.pre_close.has_value());
  }
}

TEST_CASE("import::parse_baostock_k on a real baostock extract") {
  const auto text = read_bytes(vendor("baostock_000001.SZ.csv"));
  SUBCASE("adjusted prices (adjustflag 2) are refused with what to do") {
    std::istringstream in(text);
    const auto file = import::parse_baostock_k(in, false);
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message
          == "2: adjustflag: the file holds forward-adjusted (qfq) prices (adjustflag 2); ashare "
             "stores raw prices plus factors: export with adjustflag=3, or pass --adjusted-input "
             "to store the prices as given");
  }
  SUBCASE("--adjusted-input reads them, skipping and counting suspended days") {
    std::istringstream in(text);
    const auto file = import::parse_baostock_k(in, true);
    REQUIRE(file.ok());
    CHECK(file->problems.empty());
    CHECK(file->suspended_skipped == 46); // 2010-06-29 .. 2010-09-01, tradestatus 0
    CHECK(file->rows.size() == 14);
    // 2010-06-21,sz.000001,5.5968596100,5.9880901200,5.5968596100,5.9169573000,5.6000929200,
    // 58980712,1063389304.1100,2,2.017045,1,5.658200,0
    const auto& row = row_on(*file, "2010-06-21");
    CHECK(row.symbol == "000001.SZ");
    CHECK(row.bar.open == 5.59685961);
    CHECK(row.bar.high == 5.98809012);
    CHECK(row.bar.close == 5.9169573);
    CHECK(row.pre_close == 5.60009292);
    CHECK(row.bar.volume == 58980712);
    CHECK(row.bar.turnover == 1063389304.11);
    CHECK(row.bar.change_pct == 5.6582);
    for (const auto& kept : file->rows) {
      CHECK_FALSE((kept.bar.trade_date > date("2010-06-29") && kept.bar.trade_date < date("2010-09-02")));
    }
  }
  SUBCASE("raw files (adjustflag 3) need no flag") {
    std::istringstream in("date,code,open,high,low,close,preclose,volume,amount,adjustflag,turn,"
                          "tradestatus,pctChg,isST\n"
                          "2024-01-02,sh.600519,1715,1718.19,1678.1,1685.01,1726,3215623,"
                          "5440082548.0000,3,0.26,1,-2.3749,0\n");
    const auto file = import::parse_baostock_k(in, false);
    REQUIRE(file.ok());
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].symbol == "600519.SH");
  }
}

TEST_CASE("import::parse_tdx_day on a real TDX .day extract") {
  std::ifstream in(vendor("sh600000.day"), std::ios::binary);
  const auto file = import::parse_tdx_day(in, "600000.SH");
  REQUIRE(file.ok());
  CHECK(file->problems.empty());
  REQUIRE(file->rows.size() == 80);
  CHECK_FALSE(file->has_factor);
  CHECK_FALSE(file->has_change_pct);
  // Record 1: 19991110, 2950, 2980, 2700, 2775 (cents), amount 4859102208.0f, volume 174085000.
  const auto& first = file->rows.front();
  CHECK(first.bar.trade_date == date("1999-11-10"));
  CHECK(first.bar.open == 29.5);
  CHECK(first.bar.high == 29.8);
  CHECK(first.bar.low == 27.0);
  CHECK(first.bar.close == 27.75);
  CHECK(first.bar.volume == 174085000);
  CHECK(first.bar.turnover == 4859102208.0);
  // Record 80: 20250805, 1315, 1378, 1314, 1375, 1812400000.0f, 133646594.
  const auto& last = file->rows.back();
  CHECK(last.bar.trade_date == date("2025-08-05"));
  CHECK(last.bar.close == 13.75);
  CHECK(last.bar.volume == 133646594);
  CHECK(last.bar.turnover == 1812400000.0);
}

TEST_CASE("import::tdx_vendor_row: a fractional float amount keeps its shortest decimal") {
  import::TdxRecord record;
  record.date = 20240102;
  record.open = record.high = record.low = record.close = 1234;
  record.amount = 12345.67f; // stored as 12345.669921875
  record.volume = 1000;
  const auto row = import::tdx_vendor_row(record, "600000.SH", 1);
  REQUIRE(std::holds_alternative<import::VendorRow>(row));
  CHECK(domain::to_double(std::get<import::VendorRow>(row).turnover) == 12345.67);
  CHECK(domain::to_double(std::get<import::VendorRow>(row).close) == 12.34);
  record.date = 20240231;
  const auto bad_date = import::tdx_vendor_row(record, "600000.SH", 7);
  REQUIRE(std::holds_alternative<import::RowProblem>(bad_date));
  CHECK(std::get<import::RowProblem>(bad_date).line == 7);
  CHECK(std::get<import::RowProblem>(bad_date).column == "date");
}

TEST_CASE("import::tdx_vendor_row: a NaN or infinite amount is a problem, never 0 (D16)") {
  import::TdxRecord record;
  record.date = 20240102;
  record.open = record.high = record.low = record.close = 1234;
  record.volume = 1000;
  for (const float amount : {std::numeric_limits<float>::quiet_NaN(),
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity()}) {
    record.amount = amount;
    const auto row = import::tdx_vendor_row(record, "600000.SH", 3);
    REQUIRE(std::holds_alternative<import::RowProblem>(row));
    const auto& problem = std::get<import::RowProblem>(row);
    CHECK(problem.line == 3);
    CHECK(problem.column == "amount");
    CHECK(problem.message == "the float32 amount is not a finite number");
  }
}

TEST_CASE("import: broken vendor files give file:line errors and store nothing") {
  VendorFixture f;
  const std::string tushare_header =
    "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n";
  const std::string good_row =
    "600519.SH,20240102,1715.0,1718.19,1678.1,1685.01,1726.0,-40.99,-2.3749,32156.23,5440082.548\n";
  struct Case {
    const char* what;
    std::string name;
    std::string text;
    std::string message; // the error, or the first problem as "line: column: message"
    std::optional<import::SourceFormat> format = std::nullopt; // nullopt: detected
  };
  auto tdx_record = [](std::uint32_t day) {
    std::string bytes(32, '\0');
    for (int i = 0; i < 4; ++i) {
      bytes[static_cast<std::size_t>(i)] = static_cast<char>((day >> (8 * i)) & 0xff);
    }
    return bytes;
  };
  const std::string baostock_header =
    "date,code,open,high,low,close,preclose,volume,amount,adjustflag,turn,tradestatus,pctChg,isST\n";
  const std::vector<Case> cases{
    {"missing column", "a.csv",
     "ts_code,trade_date,open,high,low,close,pre_close,pct_chg,vol\n" + good_row,
     "1: header: missing column \"amount\" (a Tushare daily file has ts_code, trade_date, open, "
     "high, low, close, vol, amount)"},
    {"wrong encoding", "600519.SH.csv",
     "\xc8\xd5\xc6\xda,\xbf\xaa\xc5\xcc\n2024-01-02,1715.0\n",
     "1: header: the header is not UTF-8 (GBK?): save the file as UTF-8 and import it again",
     import::SourceFormat::akshare},
    {"akshare: missing column", "600519.SH.csv",
     "日期,开盘,收盘,最高,最低,成交量\n2024-01-02,1715.0,1685.01,1718.19,1678.1,32156\n",
     "1: header: missing column \"成交额\" (an AkShare stock_zh_a_hist file has 日期, 开盘, 收盘, "
     "最高, 最低, 成交量, 成交额)"},
    {"baostock: unparseable number", "d.csv",
     baostock_header
       + "2024-01-02,sh.600519,1715,1718.19,1678.1,1685.01,1726,3215623,5440082548.00x,3,0.26,1,"
         "-2.3749,0\n",
     "2: amount: \"5440082548.00x\" is not a number"},
    {"tdx: truncated file", "sh600001.day", tdx_record(20240102) + "x",
     "1: file: size 33 bytes is not a positive multiple of 32: not a TDX .day file"},
    {"tdx: a record with no valid date", "sh600001.day", tdx_record(20240231),
     "1: date: 20240231 is not a date YYYYMMDD"},
    {"unparseable number", "b.csv",
     tushare_header + good_row
       + "600519.SH,20240103,1681.11,1695.22,1676.33,1694.0,1685.01,8.99,0.5339,2O229.1,3411400.667\n",
     "3: vol: \"2O229.1\" is not a number"},
    {"duplicate row", "c.csv", tushare_header + good_row + good_row,
     "3: trade_date: duplicate row for 600519.SH on 2024-01-02 (first on line 2)"},
  };
  // The store holds data already: a refused file must leave it exactly as it was.
  REQUIRE(import::import_file(f.store, vendor("sh600000.day"), {})->committed);
  for (const auto& c : cases) {
    CAPTURE(c.what);
    const auto before = test::dump_store(f.db);
    import::ImportOptions options;
    options.format = c.format;
    const auto report = f.import_text(c.name, c.text, options);
    if (!report.ok()) {
      CHECK(report.error().message == (f.dir / c.name).string() + ":" + c.message);
    } else {
      CHECK_FALSE(report->committed);
      REQUIRE_FALSE(report->problems.empty());
      const auto& problem = report->problems.front();
      CHECK(std::to_string(problem.line) + ": " + problem.column + ": " + problem.message
            == c.message);
    }
    CHECK(test::dump_store(f.db) == before);
  }
}

TEST_CASE("import::import_file: vendor files end to end") {
  VendorFixture f;
  SUBCASE("tushare: factors follow the pre_close chain and the symbol records its source") {
    const auto report = import::import_file(f.store, vendor("tushare_daily_600519.SH.csv"), {});
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK(report->format == import::SourceFormat::tushare);
    CHECK(report->factor_origin == import::FactorOrigin::pre_close_chain);
    // 2023-12-20 (special dividend) and 2024-06-19: close[t-1] / pre_close[t] != 1.
    CHECK(report->adjustment_events == 2);
    const auto bars = stored(f.store, "600519.SH");
    REQUIRE(bars.size() == 161);
    CHECK(bars.front().factor == 1.0);
    const auto info = f.store.find_symbol("600519.SH");
    REQUIRE(info.has_value());
    CHECK(info->source == "tushare");
    CHECK(info->factor_origin == "pre_close_chain");
    CHECK_FALSE(info->adjusted);
    CHECK(f.store.load_dataset_info().source == "tushare");
    // Re-importing changes nothing: the chain starts again from the same bar.
    const auto before = test::dump_store(f.db, false);
    REQUIRE(import::import_file(f.store, vendor("tushare_daily_600519.SH.csv"), {})->committed);
    CHECK(test::dump_store(f.db, false) == before);
  }
  SUBCASE("akshare: the symbol comes from the file name or --symbol, never from digits alone") {
    const auto text = read_bytes(vendor("akshare_600519.SH.csv"));
    auto named = f.import_text("600519.SH.csv", text);
    REQUIRE(named.ok());
    CHECK(named->symbols == std::set<std::string>{"600519.SH"});
    CHECK(named->factor_origin == import::FactorOrigin::none);
    const auto bare = f.import_text("600519.csv", text);
    REQUIRE_FALSE(bare.ok());
    CHECK(bare.error().message
          == (f.dir / "600519.csv").string()
               + ": the file name does not say the symbol with its exchange (six digits alone do "
                 "not name one): name the file like 600519.SH.csv or pass --symbol 600519.SH");
    import::ImportOptions options;
    options.symbol = "600519.sh";
    const auto flagged = f.import_text("600519.csv", text, options);
    REQUIRE(flagged.ok());
    CHECK(flagged->symbols == std::set<std::string>{"600519.SH"});
  }
  SUBCASE("baostock --adjusted-input: stored as given with factor 1, recorded as adjusted") {
    import::ImportOptions options;
    options.adjusted_input = true;
    const auto report = import::import_file(f.store, vendor("baostock_000001.SZ.csv"), options);
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK(report->suspended_skipped == 46);
    CHECK(report->rows_loaded == 14);
    for (const auto& bar : stored(f.store, "000001.SZ")) {
      CHECK(bar.factor == 1.0);
    }
    CHECK(f.store.find_symbol("000001.SZ")->adjusted);
  }
  SUBCASE("tdx: the symbol comes from the TDX file name") {
    const auto report = import::import_file(f.store, vendor("sh600000.day"), {});
    REQUIRE(report.ok());
    CHECK(report->committed);
    CHECK(report->symbols == std::set<std::string>{"600000.SH"});
    CHECK(report->format == import::SourceFormat::tdx);
  }
}
