#include "testutil.hpp"

#include "core/import/calendar_csv.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace ashare;
using test::date;

namespace {

Result<import::CalendarFile> parse_calendar(const std::string& text) {
  std::istringstream in(text);
  return import::parse_trade_cal_csv(in, "cal.csv");
}

} // namespace

TEST_CASE("import::parse_trade_cal_csv: the layouts and what they mean (D19)") {
  SUBCASE("Tushare Pro with pandas' index column, newest first") {
    const auto file =
        parse_calendar(",exchange,cal_date,is_open\n1,SSE,20240213,0\n0,SSE,20240208,1\n");
    REQUIRE(file);
    CHECK(file->first == date("2024-02-08"));
    CHECK(file->last == date("2024-02-13"));
    CHECK(file->open_days == std::vector<domain::Date>{date("2024-02-08")});
    CHECK(file->rows == 2);
  }
  SUBCASE("open days only: the span is first .. last, the rest closed") {
    const auto file = parse_calendar("cal_date,is_open,pretrade_date\n20240208,1,20240207\n"
                                     "20240219,1,20240208\n");
    REQUIRE(file);
    CHECK(file->open_days.size() == 2);
    CHECK(file->last == date("2024-02-19"));
  }
  SUBCASE("the pre-Pro layout") {
    const auto file = parse_calendar("calendarDate,isOpen\n1990-12-19,1\n1990-12-22,0\n");
    REQUIRE(file);
    CHECK(file->first == date("1990-12-19"));
  }
}

TEST_CASE("import::parse_trade_cal_csv: refusals, in the importers' words") {
  const struct {
    const char* text;
    const char* message;
  } k_cases[] = {
    {"", "cal.csv:1: header: the file is empty: expected cal_date,is_open"},
    {"date,open\n", "cal.csv:1: header: expected the columns cal_date and is_open"},
    {"cal_date,is_open\n", "cal.csv:2: cal_date: no days: the file has a header only"},
    {"cal_date,is_open\n20240230,1\n",
     "cal.csv:2: cal_date: \"20240230\" is not a date (YYYYMMDD or YYYY-MM-DD)"},
    {"cal_date,is_open\n20240208,Y\n", "cal.csv:2: is_open: \"Y\" is not 0 or 1"},
    {"exchange,cal_date,is_open\nSZSE,20240208,1\n",
     "cal.csv:2: exchange: \"SZSE\": the store keeps the SSE calendar (D19)"},
    {"cal_date,is_open\n20240208,1\n20240208,0\n", "cal.csv:3: cal_date: 2024-02-08 is given twice"},
  };
  for (const auto& c : k_cases) {
    CAPTURE(c.text);
    const auto file = parse_calendar(c.text);
    REQUIRE(!file);
    CHECK(file.error().code == ErrorCode::invalid_input);
    CHECK(file.error().message == c.message);
  }
}
