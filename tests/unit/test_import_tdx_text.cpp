// D20: TDX's text exports (数据导出) read as `--format tdx-text`, on the real exports of 510300.SH in
// tests/data/vendor/ (GBK, CRLF): the raw one equals its rows, the 后复权 one is refused.
#include "testutil.hpp"

#include "support/tdx_export.hpp"

#include "core/domain/number.hpp"
#include "core/import/gbk_text.hpp"
#include "core/import/source_format.hpp"
#include "core/import/vendor_formats.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace ashare;
using test::date;

namespace {

std::filesystem::path tdx_text_fixture(const std::string& name) {
  return test::data_dir() / "vendor" / name;
}

std::string tdx_text_bytes(const std::string& name) {
  std::ifstream in(tdx_text_fixture(name), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Result<import::ParsedFile> parse_tdx_text_string(const std::string& text, const std::string& symbol) {
  std::istringstream in(text);
  return import::parse_tdx_text(in, symbol);
}

// A small export in UTF-8 (as a user might save one), of `symbol`'s `code` and `title_tail`.
std::string utf8_export(const std::string& code, const std::string& title_tail, const std::string& rows) {
  return code + " 样本 日线 " + title_tail + "\r\n      日期\t    开盘\t    最高\t    最低\t    收盘\t    成交量\t    成交额\r\n"
         + rows + "数据来源:通达信\r\n";
}

} // namespace

TEST_CASE("import::parse_tdx_text: the raw 510300.SH export equals its rows") {
  const auto text = tdx_text_bytes("tdx_text_510300.SH_raw.txt");
  const auto file = parse_tdx_text_string(text, "510300.SH");
  REQUIRE_MESSAGE(file.ok(), (file.ok() ? "" : file.error().message));
  CHECK(file->problems.empty());
  CHECK_FALSE(file->has_factor);
  CHECK_FALSE(file->has_change_pct);
  const auto expected = test::tdx_export_rows(text);
  REQUIRE(expected.size() == 3003);
  REQUIRE(file->rows.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& row = file->rows[i];
    const auto& want = expected[i];
    std::string iso = want[0];
    iso[4] = iso[7] = '-';
    INFO("row " << i << ": " << want[0]);
    CHECK(row.symbol == "510300.SH");
    CHECK(row.line == static_cast<std::int64_t>(i) + 3);
    CHECK(row.bar.trade_date == date(iso));
    CHECK(row.bar.open == std::stod(want[1])); // prices to 0.001, as written: no 10x (D20)
    CHECK(row.bar.high == std::stod(want[2]));
    CHECK(row.bar.low == std::stod(want[3]));
    CHECK(row.bar.close == std::stod(want[4]));
    CHECK(row.bar.volume == std::stoll(want[5])); // shares
    CHECK(row.bar.turnover == std::stod(want[6])); // CNY
  }
  // PROVENANCE.md's samples.
  CHECK(file->rows.front().bar.close == 2.604);
  CHECK(file->rows.front().bar.volume == 1277518769);
  CHECK(file->rows.front().bar.turnover == 3285755392.0);
  CHECK(file->rows.back().bar.trade_date == date("2024-09-30"));
  CHECK(file->rows.back().bar.close == 4.233);
  CHECK(file->rows.back().bar.volume == 6370234000);
}

TEST_CASE("import::parse_tdx_text: an adjusted export is refused, saying to export 不复权 (D8)") {
  const auto hfq = parse_tdx_text_string(tdx_text_bytes("tdx_text_510300.SH_hfq.txt"), "510300.SH");
  REQUIRE_FALSE(hfq.ok());
  CHECK(hfq.error().code == ErrorCode::invalid_input);
  CHECK(hfq.error().message
        == "1: title: the export holds 后复权 (backward-adjusted) prices; ashare keeps raw prices "
           "and factors (D8): export the bars again from TDX choosing 不复权");
  const auto qfq = parse_tdx_text_string(utf8_export("510300", "前复权", "2024/01/02,3.4,3.5,3.3,3.45,100,345\r\n"),
                                         "510300.SH");
  REQUIRE_FALSE(qfq.ok());
  CHECK(qfq.error().message.find("前复权 (forward-adjusted)") != std::string::npos);
}

TEST_CASE("import::parse_tdx_text: the file's kind sets the volume unit, and its checks") {
  const std::string row = "2024/01/02,3.401,3.5,3.3,3.45,12345,4259062.50\r\n";
  SUBCASE("a fund's (or stock's) volume in shares, from a UTF-8 export too") {
    const auto file = parse_tdx_text_string(utf8_export("510300", "不复权", row), "510300.SH");
    REQUIRE(file.ok());
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].bar.open == 3.401);
    CHECK(file->rows[0].bar.volume == 12345);
    CHECK(file->rows[0].bar.turnover == 4259062.5);
  }
  SUBCASE("an index's volume in lots (D20)") {
    const auto file = parse_tdx_text_string(utf8_export("000300", "不复权", row), "000300.SH");
    REQUIRE(file.ok());
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].bar.volume == 1234500);
  }
  SUBCASE("a code D20 keeps out refuses the file") {
    const auto file = parse_tdx_text_string(utf8_export("508000", "不复权", row), "508000.SH");
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message == "1: symbol: 508000.SH is a REIT: ashare keeps it out (D20)");
  }
  SUBCASE("a title naming another code refuses the file") {
    const auto file = parse_tdx_text_string(utf8_export("510500", "不复权", row), "510300.SH");
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message
          == "1: title: the export is of 510500, not of 510300.SH: name the file like "
             "SH#510500.txt or pass --symbol with its exchange");
  }
  SUBCASE("another header refuses the file") {
    const auto file = parse_tdx_text_string("510300 样本 日线 不复权\r\n日期\t开盘\t收盘\r\n" + row, "510300.SH");
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message
          == "2: header: expected the columns 日期 开盘 最高 最低 收盘 成交量 成交额 of a TDX "
             "export of daily bars, found \"日期\t开盘\t收盘\"");
  }
  SUBCASE("bad rows are problems on their lines, as D16's") {
    const auto file = parse_tdx_text_string(
      utf8_export("510300", "不复权", row + "2024-01-03,3.4,3.5,3.3,3.45,1,1\r\n2024/01/04,3.4,3.5\r\n"
                                          "2024/01/05,3.4,3.3,3.5,3.45,1,1\r\n"),
      "510300.SH");
    REQUIRE(file.ok());
    CHECK(file->rows.size() == 1);
    REQUIRE(file->problems.size() == 3);
    CHECK(file->problems[0].line == 4);
    CHECK(file->problems[0].column == "日期");
    CHECK(file->problems[0].message == "\"2024-01-03\" is not a date YYYY/MM/DD");
    CHECK(file->problems[1].line == 5);
    CHECK(file->problems[1].column == "row");
    CHECK(file->problems[2].line == 6);
    CHECK(file->problems[2].column == "high");
  }
}

TEST_CASE("import: tdx-text detected by its GBK header, its symbol from SH#510300.txt") {
  const auto text = tdx_text_bytes("tdx_text_510300.SH_raw.txt");
  const auto detected = import::detect_source_format("export.txt", std::string_view(text).substr(0, 4096));
  REQUIRE(detected.ok());
  CHECK(*detected == import::SourceFormat::tdx_text);
  CHECK(*import::detect_source_format("e.txt", utf8_export("510300", "不复权", ""))
        == import::SourceFormat::tdx_text);
  CHECK(import::find_source_format("tdx-text") == import::SourceFormat::tdx_text);
  CHECK(import::source_format_name(import::SourceFormat::tdx_text) == "tdx-text");
  CHECK(*import::symbol_from_file_name("/x/SH#510300.txt") == "510300.SH");
  CHECK(*import::symbol_from_file_name("SZ#159919.txt") == "159919.SZ");
  CHECK_FALSE(import::symbol_from_file_name("510300.txt").ok());
}

TEST_CASE("import::utf8_from_utf8_or_gbk") {
  CHECK(*import::utf8_from_utf8_or_gbk("abc 日线") == "abc 日线");
  CHECK(*import::utf8_from_utf8_or_gbk("\xc8\xd5\xcf\xdf") == "日线"); // GBK
  CHECK_FALSE(import::utf8_from_utf8_or_gbk("\xc8").has_value());    // a cut sequence
}
