#include "testutil.hpp"

#include "core/domain/date.hpp"
#include "core/import/canonical_csv.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using namespace ashare;

namespace {

constexpr const char* k_good_row =
    "600519.SH,2024-01-02,1685.0,1695.0,1663.0,1685.01,3215644,5417497670,-1.5,8.305\n";

Result<import::ParsedFile> parse_canonical(const std::string& text) {
  std::istringstream in(text);
  return import::parse_canonical_csv(in);
}

// Replace field `index` (0-based) of the good row with `value`.
std::string good_row_with(std::size_t index, const std::string& value) {
  std::string fields[10];
  std::istringstream in(std::string(k_good_row).substr(0, std::string(k_good_row).size() - 1));
  for (auto& field : fields) {
    std::getline(in, field, ',');
  }
  fields[index] = value;
  std::string out = fields[0];
  for (std::size_t i = 1; i < std::size(fields); ++i) {
    out += "," + fields[i];
  }
  return out + "\n";
}

} // namespace

TEST_CASE("import::parse_canonical_csv: a good file") {
  const auto file = parse_canonical(std::string(test::k_canonical_header) + k_good_row);
  REQUIRE(file.ok());
  CHECK(file->has_factor);
  CHECK(file->has_change_pct);
  CHECK(file->problems.empty());
  REQUIRE(file->rows.size() == 1);
  const auto& row = file->rows[0];
  CHECK(row.line == 2);
  CHECK(row.symbol == "600519.SH");
  CHECK(row.bar.trade_date.iso() == "2024-01-02");
  CHECK(row.bar.open == 1685.0);
  CHECK(row.bar.high == 1695.0);
  CHECK(row.bar.low == 1663.0);
  CHECK(row.bar.close == 1685.01);
  CHECK(row.bar.volume == 3215644);
  CHECK(row.bar.turnover == 5417497670.0);
  CHECK(row.bar.change_pct == -1.5);
  CHECK(row.bar.factor == 8.305);
}

TEST_CASE("import::parse_canonical_csv: header") {
  SUBCASE("columns in any order; symbols canonicalised; extra columns ignored") {
    const auto file =
        parse_canonical("note,turnover,volume,close,low,high,open,trade_date,symbol,extra\n"
                        "hello,1050,100,10.5,9,11,10,2024-01-02,600519.sh,x\n");
    REQUIRE(file.ok());
    REQUIRE(file->rows.size() == 1);
    CHECK(file->problems.empty());
    CHECK(file->rows[0].symbol == "600519.SH");
    CHECK(file->rows[0].bar.open == 10.0);
    CHECK(file->rows[0].bar.close == 10.5);
    CHECK(file->rows[0].bar.volume == 100);
    CHECK(file->rows[0].bar.turnover == 1050.0);
  }

  SUBCASE("without factor: every factor is 1; without change_pct: it is to be computed") {
    const auto file = parse_canonical("symbol,trade_date,open,high,low,close,volume,turnover\n"
                                      "600519.SH,2024-01-02,10,11,9,10.5,100,1050\n");
    REQUIRE(file.ok());
    CHECK_FALSE(file->has_factor);
    CHECK_FALSE(file->has_change_pct);
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].bar.factor == 1.0);
  }

  SUBCASE("a missing required column refuses the file") {
    const char* required[] = {"symbol", "trade_date", "open",   "high",
                              "low",    "close",      "volume", "turnover"};
    for (const char* missing : required) {
      CAPTURE(std::string_view(missing));
      std::string header;
      for (const char* column : required) {
        if (std::string_view(column) != missing) {
          header += (header.empty() ? "" : ",") + std::string(column);
        }
      }
      const auto file = parse_canonical(header + "\n");
      REQUIRE_FALSE(file.ok());
      CHECK(file.error().code == ErrorCode::invalid_input);
      CHECK(file.error().message
            == "1: header: missing column \"" + std::string(missing)
                   + "\" (the canonical columns are symbol, trade_date, open, high, low, close, "
                     "volume, turnover and optionally change_pct, factor)");
    }
  }

  SUBCASE("an empty file and a column named twice") {
    const auto empty = parse_canonical("");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message
          == "1: header: the file is empty: expected a header row naming the columns");

    const auto twice =
        parse_canonical("symbol,trade_date,open,high,low,close,volume,turnover,close\n");
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.error().message == "1: header: column \"close\" is named twice");
  }

  SUBCASE("the header line is the first non-blank line") {
    const auto file = parse_canonical("\n\nsymbol,trade_date,open,high,low,close\n");
    REQUIRE_FALSE(file.ok());
    CHECK(file.error().message.starts_with("3: header: missing column \"volume\""));
  }
}

TEST_CASE("import::parse_canonical_csv: each bad row names its line and column") {
  // Field indices of the canonical header.
  enum { symbol, trade_date, open, high, low, close, volume, turnover, change_pct, factor };
  const struct {
    int field;
    const char* value;
    const char* column;
    const char* message;
  } table[] = {
      {symbol, "60051.SH", "symbol",
       "invalid symbol \"60051.SH\": expected six digits, a dot and SH, SZ or BJ"},
      {symbol, "", "symbol", "invalid symbol \"\": expected six digits, a dot and SH, SZ or BJ"},
      {trade_date, "2024-02-30", "trade_date", "\"2024-02-30\" is not a date YYYY-MM-DD"},
      {trade_date, "2024/01/02", "trade_date", "\"2024/01/02\" is not a date YYYY-MM-DD"},
      {trade_date, "2024-1-02", "trade_date", "\"2024-1-02\" is not a date YYYY-MM-DD"},
      {open, "abc", "open", "\"abc\" is not a number"},
      {open, "", "open", "\"\" is not a number"},
      {close, "nan", "close", "\"nan\" is not a number"},
      {high, "1e999", "high", "\"1e999\" is out of range"},
      {high, "-1e-999", "high", "\"-1e-999\" is out of range"},
      {open, "0", "open", "price 0 must be above 0 and below 1000000000"},
      {low, "-1", "low", "price -1 must be above 0 and below 1000000000"},
      {close, "-1685.01", "close", "price -1685.01 must be above 0 and below 1000000000"},
      {high, "1685.005", "high", "high 1685.005 is below max(open, close) 1685.01"},
      {high, "1684", "high", "high 1684 is below max(open, close) 1685.01"},
      {low, "1685.001", "low", "low 1685.001 is above min(open, close) 1685"},
      {volume, "-5", "volume", "volume -5 must be from 0 to 1000000000000000"},
      {volume, "1.5", "volume", "\"1.5\" is not a whole number of shares"},
      {volume, "x", "volume", "\"x\" is not a number"},
      {turnover, "-1.5", "turnover", "turnover -1.5 must be at least 0 and below 1000000000000000"},
      {change_pct, "n/a", "change_pct", "\"n/a\" is not a number"},
      {factor, "0", "factor", "factor 0 must be from 0.000001 to 1000000000"},
      {factor, "-8.305", "factor", "factor -8.305 must be from 0.000001 to 1000000000"},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.column));
    CAPTURE(std::string_view(row.value));
    const auto file = parse_canonical(
        std::string(test::k_canonical_header) + k_good_row
        + good_row_with(static_cast<std::size_t>(row.field), row.value) + k_good_row);
    REQUIRE(file.ok());
    CHECK(file->rows.size() == 2); // the good rows are kept
    REQUIRE(file->problems.size() == 1);
    CHECK(file->problems[0].line == 3);
    CHECK(file->problems[0].column == row.column);
    CHECK(file->problems[0].message == row.message);
  }
}

TEST_CASE("import::parse_canonical_csv: accepted variants") {
  const struct {
    int field;
    const char* value;
  } table[] = {
      {1, "20240102"},                 // YYYYMMDD is accepted as well
      {6, "3.2e6"},                    // a whole number of shares in any decimal notation
      {6, "0"},                        // no trades
      {7, "0"},        {3, "1685.01"}, // high == max(open, close)
      {4, "1685.0"},                   // low == min(open, close)
      {8, "-10.0"},                    // change_pct may be negative
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.value));
    const auto file =
        parse_canonical(std::string(test::k_canonical_header)
                        + good_row_with(static_cast<std::size_t>(row.field), row.value));
    REQUIRE(file.ok());
    CHECK(file->problems.empty());
    CHECK(file->rows.size() == 1);
  }
  const auto file =
      parse_canonical(std::string(test::k_canonical_header) + good_row_with(6, "3.2e6"));
  CHECK(file->rows[0].bar.volume == 3200000);
  const auto compact =
      parse_canonical(std::string(test::k_canonical_header) + good_row_with(1, "20240102"));
  CHECK(compact->rows[0].bar.trade_date.iso() == "2024-01-02");
}

TEST_CASE("import::parse_canonical_csv: structural row problems") {
  SUBCASE("a row with the wrong number of fields") {
    const auto file = parse_canonical(std::string(test::k_canonical_header)
                                      + "600519.SH,2024-01-02,1,1,1,1,1,1,1\n"
                                      + "600519.SH,2024-01-03,1,1,1,1,1,1,1,1,extra\n");
    REQUIRE(file.ok());
    CHECK(file->rows.empty());
    REQUIRE(file->problems.size() == 2);
    CHECK(file->problems[0].line == 2);
    CHECK(file->problems[0].column == "row");
    CHECK(file->problems[0].message == "has 9 fields, the header has 10");
    CHECK(file->problems[1].line == 3);
    CHECK(file->problems[1].message == "has 11 fields, the header has 10");
  }

  SUBCASE("line numbers count blank lines and quoted newlines") {
    const auto file = parse_canonical(std::string(test::k_canonical_header) + "\n" + k_good_row
                                      + "\"600519.SH\",\"2024-\n01-03\",1,1,1,1,1,1,1,1\n"
                                      + good_row_with(2, "0"));
    REQUIRE(file.ok());
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].line == 3);
    REQUIRE(file->problems.size() == 2);
    CHECK(file->problems[0].line == 4);
    CHECK(file->problems[0].column == "trade_date");
    CHECK(file->problems[1].line == 6);
    CHECK(file->problems[1].column == "open");
  }

  SUBCASE("an unterminated quoted field") {
    const auto file = parse_canonical(std::string(test::k_canonical_header) + k_good_row
                                      + "600519.SH,\"2024-01-03,1\n");
    REQUIRE(file.ok());
    REQUIRE_FALSE(file->problems.empty());
    CHECK(file->problems.back().line == 3); // where the quoted field opens
    CHECK(file->problems.back().column == "row");
    CHECK(file->problems.back().message == "unterminated quoted field");
  }

  SUBCASE("a CRLF file with a BOM parses like the plain one") {
    const auto file =
        parse_canonical("\xEF\xBB\xBFsymbol,trade_date,open,high,low,close,volume,turnover\r\n"
                        "600519.SH,2024-01-02,10,11,9,10.5,100,1050\r\n");
    REQUIRE(file.ok());
    CHECK(file->problems.empty());
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].bar.turnover == 1050.0);
  }
}

TEST_CASE("import::parse_canonical_csv: D16's bounds on dates and numbers, each edge") {
  enum { trade_date = 1, open = 2, high = 3, volume = 6, turnover = 7, change_pct = 8, factor = 9 };
  const auto today = domain::today_utc8().iso();
  const auto tomorrow = domain::today_utc8().plus_days(1).iso();
  const std::string forty_digits(40, '1');   // 1111...: 40 significant digits
  const std::string forty_one(41, '1');
  const std::string four_hundred(400, '1');
  const std::string tiny = "0." + std::string(398, '0') + "1"; // 10^-399: one significant digit
  const std::string long_fraction = "1." + std::string(39, '1'); // 40 digits, read exactly enough
  const std::string too_long_fraction = "1." + std::string(40, '1');
  const struct {
    int field;
    std::string value;
    const char* column; // "" when the row is accepted
    std::string message;
  } table[] = {
    {trade_date, "1990-12-19", "", ""},
    {trade_date, today, "", ""},
    {trade_date, "1990-12-18", "trade_date",
     "1990-12-18 is outside 1990-12-19 (the first session) to " + today + " (today at UTC+8)"},
    {trade_date, "18991231", "trade_date",
     "1899-12-31 is outside 1990-12-19 (the first session) to " + today + " (today at UTC+8)"},
    {trade_date, "0001-01-01", "trade_date",
     "0001-01-01 is outside 1990-12-19 (the first session) to " + today + " (today at UTC+8)"},
    {trade_date, tomorrow, "trade_date",
     tomorrow + " is outside 1990-12-19 (the first session) to " + today + " (today at UTC+8)"},
    {trade_date, "9999-12-31", "trade_date",
     "9999-12-31 is outside 1990-12-19 (the first session) to " + today + " (today at UTC+8)"},
    {high, "999999999.99", "", ""},
    {high, "1000000000", "high", "price 1000000000 must be above 0 and below 1000000000"},
    {high, "1e308", "high", "price 1e+308 must be above 0 and below 1000000000"},
    {high, four_hundred, "high",
     "\"11111111111111111111111111111111...\" (400 characters) has more than 40 significant "
     "digits: too long to read exactly"},
    {open, "1e-320", "open", ""}, // a subnormal double: positive, then below low
    {volume, "1000000000000000", "", ""},
    {volume, "1e15", "", ""},
    {volume, "1000000000000001", "volume", "volume 1000000000000001 must be from 0 to 1000000000000000"},
    {volume, four_hundred, "volume",
     "\"11111111111111111111111111111111...\" (400 characters) has more than 40 significant "
     "digits: too long to read exactly"},
    {turnover, "999999999999999.9", "", ""},
    {turnover, "1e15", "turnover",
     "turnover 1000000000000000 must be at least 0 and below 1000000000000000"},
    {turnover, four_hundred, "turnover",
     "\"11111111111111111111111111111111...\" (400 characters) has more than 40 significant "
     "digits: too long to read exactly"},
    {turnover, tiny, "turnover", "\"0.000000000000000000000000000000...\" (401 characters) is out of range"},
    {change_pct, "-100", "", ""},
    {change_pct, "10000", "", ""},
    {change_pct, long_fraction, "", ""},
    {change_pct, too_long_fraction, "change_pct",
     "\"1.111111111111111111111111111111...\" (42 characters) has more than 40 significant "
     "digits: too long to read exactly"},
    {change_pct, "-100.0001", "change_pct", "change_pct -100.0001 must be from -100 to 10000"},
    {change_pct, "10000.5", "change_pct", "change_pct 10000.5 must be from -100 to 10000"},
    {change_pct, forty_digits, "change_pct",
     "change_pct 1.1111111111111112e+39 must be from -100 to 10000"},
    {change_pct, forty_one, "change_pct",
     "\"11111111111111111111111111111111...\" (41 characters) has more than 40 significant "
     "digits: too long to read exactly"},
    {factor, "0.000001", "", ""},
    {factor, "1e9", "", ""},
    {factor, "0.00000099", "factor", "factor 0.00000099 must be from 0.000001 to 1000000000"},
    {factor, "1000000000.5", "factor", "factor 1000000000.5 must be from 0.000001 to 1000000000"},
    {factor, "1e-308", "factor", "factor 1e-308 must be from 0.000001 to 1000000000"},
  };
  for (const auto& row : table) {
    CAPTURE(std::string_view(row.value).substr(0, 60));
    auto line = good_row_with(static_cast<std::size_t>(row.field), row.value);
    if (row.field == open && row.value == "1e-320") {
      line = good_row_with(static_cast<std::size_t>(open), "1e-320"); // low 1663 > open
      const auto file = parse_canonical(std::string(test::k_canonical_header) + line);
      REQUIRE(file->problems.size() == 1);
      CHECK(file->problems[0].column == "low");
      continue;
    }
    const auto file = parse_canonical(std::string(test::k_canonical_header) + line);
    REQUIRE(file.ok());
    if (std::string_view(row.column).empty()) {
      CHECK(file->problems.empty());
      CHECK(file->rows.size() == 1);
      continue;
    }
    REQUIRE(file->problems.size() == 1);
    CHECK(file->problems[0].column == row.column);
    CHECK(file->problems[0].message == row.message);
  }
}
