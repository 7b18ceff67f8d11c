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

TEST_CASE("gaps: D20's default window is each kind's own, from its first ledger day") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "gaps.db");
  // Open days 2024-02-05 .. 2024-02-08, 2024-02-19, 2024-02-20: the stocks fetched from the
  // first, the funds from 2024-02-19 (a store fetched before D20, then upgraded), no index.
  store_days(store, "600519.SH", {"2024-02-05", "2024-02-06", "2024-02-07", "2024-02-19", "2024-02-20"});
  store_days(store, "510300.SH", {"2024-02-19", "2024-02-20"});
  store_days(store, "000001.SH", {"2024-02-05", "2024-02-07"}); // imported: no listing, no ledger row
  {
    store::WriteTransaction transaction(store);
    const auto listed = date("2001-08-27");
    store.market().save_listing({"600519.SH", "贵州茅台", listed, std::nullopt, 'L', domain::Kind::stock});
    store.market().save_listing({"510300.SH", "沪深300ETF", listed, std::nullopt, 'L', domain::Kind::fund});
    store.market().save_listing({"159001.SZ", "一只基金", listed, std::nullopt, 'L', domain::Kind::fund});
    store.market().save_listing({"000300.SH", "沪深300", listed, std::nullopt, 'L', domain::Kind::index});
    for (const auto* day : {"2024-02-05", "2024-02-06", "2024-02-07", "2024-02-08", "2024-02-19", "2024-02-20"}) {
      store.market().save_ledger_day({"tushare-pro", date(day), "", 1, domain::Kind::stock});
    }
    for (const auto* day : {"2024-02-19", "2024-02-20"}) {
      store.market().save_ledger_day({"tushare-pro", date(day), "", 1, domain::Kind::fund});
    }
    transaction.commit();
  }
  const auto report = find_gaps(store, {{}, std::nullopt, date("2024-02-20")});
  REQUIRE(report);
  CHECK(described(*report) == std::vector<std::string>{
                                 "000001.SH 2024-02-06 missing", // no index ledger day: between its bars
                                 // 000300.SH: listed, never fetched (no index ledger day): not judged
                                 "159001.SZ 2024-02-19 missing", // a fund taken from 2024-02-19
                                 "159001.SZ 2024-02-20 missing",
                                 // 510300.SH: judged from 2024-02-19, when the funds were first taken
                                 "600519.SH 2024-02-08 missing",
                             });
  CHECK(report->symbols == 4);
  CHECK(report->from == date("2024-02-05"));

  SUBCASE("a named --from applies to every kind") {
    const auto named = find_gaps(store, {{"510300.SH", "000300.SH"}, date("2024-02-05"), date("2024-02-20")});
    REQUIRE(named);
    CHECK(named->count(GapReason::missing) == 4 + 6);
  }
}
