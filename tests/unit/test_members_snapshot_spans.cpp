// D20: spans derived from an index's snapshots (members/snapshot_spans.hpp) over the open days
// of a calendar (members/open_days.hpp).
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/members/open_days.hpp"
#include "core/members/snapshot_spans.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

using namespace ashare;
using store::MemberSource;
using store::MemberSpan;
using test::date;

namespace {

// A calendar over 2024-01-01 .. 2024-03-31 whose open days are Monday to Friday but 2024-02-09
// .. 2024-02-16 (Spring Festival) and 2024-01-01.
members::OpenDays weekday_calendar() {
  std::vector<domain::Date> open;
  for (auto day = date("2024-01-02"); day <= date("2024-03-31"); day = day.plus_days(1)) {
    const auto weekday = std::chrono::weekday(day.days()).c_encoding(); // 0 Sunday
    const bool festival = day >= date("2024-02-09") && day <= date("2024-02-16");
    if (weekday != 0 && weekday != 6 && !festival) {
      open.push_back(day);
    }
  }
  return members::OpenDays(open, std::pair{date("2024-01-01"), date("2024-03-31")});
}

MemberSpan tushare_span(const std::string& symbol,
                        const char* first,
                        std::optional<const char*> last = std::nullopt) {
  return {"000300.SH", symbol, date(first), last ? std::optional(date(*last)) : std::nullopt,
          MemberSource::tushare};
}

} // namespace

TEST_CASE("members::OpenDays moves a day to an open one, each way") {
  const auto days = weekday_calendar();
  CHECK(days.on_or_after(date("2024-01-06")) == date("2024-01-08")); // Saturday -> Monday
  CHECK(days.on_or_after(date("2024-01-08")) == date("2024-01-08"));
  CHECK(days.on_or_before(date("2024-02-12")) == date("2024-02-08")); // the festival
  CHECK(days.before(date("2024-02-19")) == date("2024-02-08"));
  CHECK(days.before(date("2024-01-09")) == date("2024-01-08"));
  SUBCASE("outside the calendar, a day is taken as it is") {
    CHECK(days.on_or_after(date("2024-04-06")) == date("2024-04-06"));
    CHECK(days.before(date("2024-04-06")) == date("2024-04-05"));
    CHECK(days.on_or_before(date("2023-12-31")) == date("2023-12-31"));
  }
}

TEST_CASE("D20: members::spans_of_snapshots") {
  const auto days = weekday_calendar();
  const std::vector<members::Snapshot> snapshots{
      {date("2024-01-02"), {"600519.SH", "000001.SZ", "600004.SH"}},
      {date("2024-01-31"), {"600519.SH", "000001.SZ"}},              // 600004.SH leaves
      {date("2024-02-17"), {"600519.SH", "000001.SZ", "600004.SH"}}, // Saturday: counts Monday
      {date("2024-02-29"), {"600519.SH", "600036.SH"}},
  };
  const auto spans = members::spans_of_snapshots("000300.SH", snapshots, days);
  CHECK(spans
        == std::vector<MemberSpan>{
            // a member until the open day before the first snapshot not naming it
            tushare_span("000001.SZ", "2024-01-02", "2024-02-28"),
            tushare_span("600004.SH", "2024-01-02", "2024-01-30"),
            tushare_span("600004.SH", "2024-02-19", "2024-02-28"),
            tushare_span("600036.SH", "2024-02-29"), // open while the last names it
            tushare_span("600519.SH", "2024-01-02"),
        });
  SUBCASE("a leaver's last day is before a holiday") {
    const std::vector<members::Snapshot> around{{date("2024-02-08"), {"600004.SH"}},
                                                {date("2024-02-19"), {}}};
    CHECK(members::spans_of_snapshots("000300.SH", around, days)
          == std::vector<MemberSpan>{tushare_span("600004.SH", "2024-02-08", "2024-02-08")});
  }
  CHECK(members::spans_of_snapshots("000300.SH", {}, days).empty());
}

TEST_CASE("D20: members::refresh_tushare_spans derives the stored snapshots' spans") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  auto& market = store->market();
  store::WriteTransaction transaction(*store);
  market.save_snapshot("000300.SH", date("2024-01-31"), {{"600519.SH", 5}, {"600004.SH", 0.1}});
  market.save_snapshot("000300.SH", date("2024-02-29"), {{"600519.SH", 5.1}});
  market.save_member_spans(
      "000300.SH", MemberSource::import,
      {{"000300.SH", "000001.SZ", date("2005-04-08"), std::nullopt, MemberSource::import}});
  members::refresh_tushare_spans(market, "000300.SH");
  // The shipped calendar: 2024-02-28 is the open day before 2024-02-29.
  CHECK(market.load_member_spans("000300.SH", MemberSource::tushare)
        == std::vector<MemberSpan>{tushare_span("600004.SH", "2024-01-31", "2024-02-28"),
                                   tushare_span("600519.SH", "2024-01-31")});
  CHECK(market.load_member_spans("000300.SH", MemberSource::import).size() == 1); // untouched
}
