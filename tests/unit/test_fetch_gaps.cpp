#include "testutil.hpp"

#include "core/fetch/gaps.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

// Store `symbol`'s bars on each day of `days`, with a summary row, in one transaction.
void store_days(store::BarStore& store,
                const std::string& symbol,
                std::initializer_list<const char*> days) {
  store::WriteTransaction transaction(store);
  for (const char* day : days) {
    store.upsert_bar(symbol, test::make_bar(day, 10, 11, 9, 10), false);
  }
  store.refresh_symbol(symbol);
  store.finish_change("test");
  transaction.commit();
}

std::vector<std::string> described(const GapReport& report) {
  std::vector<std::string> out;
  for (const auto& gap : report.gaps) {
    out.push_back(gap.symbol + " " + gap.day.iso() + " " + std::string(gap_reason_name(gap.reason)));
  }
  return out;
}

} // namespace

TEST_CASE("gaps: each missing bar on an open day has exactly one reason (D19)") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "gaps.db");
  // 2024-02-05 .. 2024-02-20: the Spring Festival closes 2024-02-09 .. 2024-02-18.
  store_days(store, "600519.SH", {"2024-02-05", "2024-02-19"});
  store_days(store, "000001.SZ", {"2024-02-07", "2024-02-08"});
  store_days(store, "600000.SH", {"2024-02-05", "2024-02-20"});
  {
    store::WriteTransaction transaction(store);
    store.market().save_listing({"600519.SH", "贵州茅台", date("2001-08-27"), std::nullopt, 'L'});
    store.market().save_listing(
        {"000001.SZ", "平安银行", date("2024-02-07"), date("2024-02-19"), 'D'});
    store.market().save_suspension("600519.SH", date("2024-02-06"));
    store.market().save_absence({"600519.SH", date("2024-02-07"), "tushare-pro"});
    transaction.commit();
  }
  const auto report = find_gaps(store, {{}, date("2024-02-05"), date("2024-02-20")});
  REQUIRE(report);
  CHECK(described(*report) == std::vector<std::string>{
                                 "000001.SZ 2024-02-05 not_listed", // before its list date
                                 "000001.SZ 2024-02-06 not_listed",
                                 "000001.SZ 2024-02-19 missing",    // its delist day: still listed
                                 "000001.SZ 2024-02-20 not_listed", // after it
                                 // 600000.SH has no listing: judged between its first and last bars
                                 "600000.SH 2024-02-06 missing",
                                 "600000.SH 2024-02-07 missing",
                                 "600000.SH 2024-02-08 missing",
                                 "600000.SH 2024-02-19 missing",
                                 "600519.SH 2024-02-06 suspended",
                                 "600519.SH 2024-02-07 absent_at_source",
                                 "600519.SH 2024-02-08 missing",
                                 "600519.SH 2024-02-20 missing",
                             });
  CHECK(report->count(GapReason::not_listed) == 3);
  CHECK(report->count(GapReason::suspended) == 1);
  CHECK(report->count(GapReason::absent_at_source) == 1);
  CHECK(report->count(GapReason::missing) == 7);
  CHECK(report->symbols == 3);

  SUBCASE("named symbols only; an unknown one is an error") {
    const auto one = find_gaps(store, {{"600519.SH"}, date("2024-02-05"), date("2024-02-20")});
    REQUIRE(one);
    CHECK(one->gaps.size() == 4);
    const auto unknown = find_gaps(store, {{"688981.SH"}, std::nullopt, std::nullopt});
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().code == ErrorCode::invalid_symbol);
  }
  SUBCASE("the default window: the first stored bar to as_of") {
    const auto whole = find_gaps(store, {});
    REQUIRE(whole);
    CHECK(whole->from == date("2024-02-05"));
    CHECK(whole->to == date("2024-02-20"));
  }
}
