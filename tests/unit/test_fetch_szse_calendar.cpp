// D19's keyless calendar: the SZSE monthList reply of every month 2005-2026, rebuilt from the
// recorded rows (tests/data/szse_calendar), reads to the shipped SSE calendar's open days.
#include "testutil.hpp"

#include "core/domain/shipped_calendar.hpp"
#include "core/fetch/szse_calendar.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

// The recorded rows by month ("YYYY-MM"), each as the reply's JSON row.
std::map<std::string, std::vector<std::string>> recorded_months() {
  std::ifstream in(test::data_dir() / "szse_calendar" / "se_calendar.csv");
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::vector<std::string>> months;
  while (std::getline(in, line)) {
    std::stringstream split(line);
    std::string zrxh, jybz, jyrq;
    std::getline(split, zrxh, ',');
    std::getline(split, jybz, ',');
    std::getline(split, jyrq, ',');
    months[jyrq.substr(0, 7)].push_back(R"({"zrxh":)" + zrxh + R"(,"jybz":")" + jybz + R"(","jyrq":")"
                                        + jyrq + R"("})");
  }
  return months;
}

std::string reply_of(const std::vector<std::string>& rows) {
  std::string out = R"({"data":[)";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += (i == 0 ? "" : ",") + rows[i];
  }
  return out + R"(],"nowdate":"2026-11-26"})";
}

} // namespace

TEST_CASE("szse calendar: every recorded month reads to the shipped calendar's open days") {
  const auto months = recorded_months();
  REQUIRE(months.size() == 264); // 2005-01 .. 2026-12
  const auto shipped = domain::shipped_open_days();
  const std::set<std::int32_t> sse(shipped.begin(), shipped.end());
  std::size_t open = 0;
  for (const auto& [month, rows] : months) {
    CAPTURE(month);
    const auto first = date(month + "-01");
    const auto read = read_szse_month(reply_of(rows), first);
    REQUIRE(read);
    CHECK(read->first == first);
    CHECK(read->last.ymd().month() == first.ymd().month());
    std::vector<domain::Date> expected;
    for (auto day = read->first; day <= read->last; day = day.plus_days(1)) {
      if (sse.count(static_cast<std::int32_t>(day.yyyymmdd())) != 0) {
        expected.push_back(day);
      }
    }
    CHECK(read->open_days == expected);
    open += read->open_days.size();
  }
  CHECK(open == 5343);
  CHECK(szse_month_url(k_szse_month_list_url, date("2024-10-01"))
        == "http://www.szse.cn/api/report/exchange/onepersistenthour/monthList?month=2024-10");
}

TEST_CASE("szse calendar: what is not a month's calendar is an error saying so") {
  const auto months = recorded_months();
  const auto october = months.at("2024-10");
  const auto first = date("2024-10-01");
  const auto refused = [&](const std::string& body, const std::string& said) {
    const auto read = read_szse_month(body, first);
    REQUIRE_FALSE(read);
    CHECK(read.error().code == ErrorCode::invalid_input);
    CHECK(read.error().message.find(said) != std::string::npos);
  };
  refused("not json", "not an object with a `data` array");
  refused(R"({"data":{}})", "not an object with a `data` array");
  refused(reply_of({R"({"jyrq":"2024-10-01"})"}), "a row without jyrq");
  auto rows = october;
  rows.push_back(R"({"zrxh":6,"jybz":"1","jyrq":"2024-11-01"})");
  refused(reply_of(rows), "a row dated 2024-11-01, outside the month");
  rows = october;
  rows.push_back(rows.front());
  refused(reply_of(rows), "2024-10-01 twice");
  rows = october;
  rows[0] = R"({"zrxh":3,"jybz":"2","jyrq":"2024-10-01"})";
  refused(reply_of(rows), "jybz 2 on 2024-10-01");
  rows[0] = R"({"zrxh":4,"jybz":"0","jyrq":"2024-10-01"})"; // 2024-10-01 was a Tuesday (3)
  refused(reply_of(rows), "zrxh 4 on 2024-10-01");
  rows = october;
  rows.erase(rows.begin() + 9); // 2024-10-10, a Thursday
  refused(reply_of(rows), "no row for 2024-10-10, a weekday");
  // A missing weekend day is closed: 2017-01-01, which the source lacks, among them.
  const auto january = read_szse_month(reply_of(months.at("2017-01")), date("2017-01-01"));
  REQUIRE(january);
  CHECK(january->open_days.front() == date("2017-01-03"));
}
