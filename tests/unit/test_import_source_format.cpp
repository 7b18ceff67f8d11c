// Issue 5: `import --format auto` tells formats apart by header or file signature, and symbols
// come from file names only when the name carries the exchange.
#include "testutil.hpp"

#include "core/import/source_format.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace ashare;
using import::SourceFormat;

TEST_CASE("import::detect_source_format") {
  struct Case {
    const char* name;
    std::string head;
    SourceFormat expected;
  };
  const std::vector<Case> cases{
    {"a.csv", "ts_code,trade_date,open,high,low,close,pre_close,change,pct_chg,vol,amount\n",
     SourceFormat::tushare},
    {"a.csv", "symbol,trade_date,open,high,low,close,volume,turnover\r\n", SourceFormat::canonical},
    {"a.csv", "\xef\xbb\xbf日期,开盘,收盘,最高,最低,成交量,成交额\n", SourceFormat::akshare},
    {"a.csv", "date,code,open,high,low,close,preclose,volume,amount,adjustflag\n",
     SourceFormat::baostock},
    {"sh600000.day", "", SourceFormat::tdx},
  };
  for (const auto& c : cases) {
    CAPTURE(c.head);
    const auto format = import::detect_source_format(c.name, c.head);
    REQUIRE(format.ok());
    CHECK(*format == c.expected);
  }
  SUBCASE("TDX records are recognised without the .day name") {
    std::ifstream in(test::data_dir() / "vendor" / "sh600000.day", std::ios::binary);
    std::string head(64, '\0');
    in.read(head.data(), 64);
    CHECK(*import::detect_source_format("prices.bin", head) == SourceFormat::tdx);
  }
  SUBCASE("anything else names the file and the formats") {
    const auto unknown = import::detect_source_format("x.csv", "a,b,c\n1,2,3\n");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message
          == "x.csv:1: header: cannot tell the format from \"a,b,c\": pass --format canonical, "
             "tushare, akshare, baostock, tdx or tdx-text");
    CHECK(import::detect_source_format("e.csv", "").error().message
          == "e.csv:1: header: the file is empty: expected a header row naming the columns");
  }
}

TEST_CASE("import::find_source_format and source_format_name round-trip") {
  for (const auto* name : {"canonical", "tushare", "akshare", "baostock", "tdx"}) {
    const auto format = import::find_source_format(name);
    REQUIRE(format.has_value());
    CHECK(import::source_format_name(*format) == name);
  }
  CHECK_FALSE(import::find_source_format("auto").has_value());
}

TEST_CASE("import::symbol_from_file_name") {
  CHECK(*import::symbol_from_file_name("data/600519.SH.csv") == "600519.SH");
  CHECK(*import::symbol_from_file_name("430047.bj.csv") == "430047.BJ");
  CHECK(*import::symbol_from_file_name("vipdoc/sh/lday/sh600000.day") == "600000.SH");
  CHECK(*import::symbol_from_file_name("sz000001.day") == "000001.SZ");
  CHECK_FALSE(import::symbol_from_file_name("600519.csv").ok());
  CHECK_FALSE(import::symbol_from_file_name("000001.day").ok());
}
