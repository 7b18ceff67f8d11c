#include "testutil.hpp"

#include "core/fetch/plan.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

void ledger(store::BarStore& store, const char* day, const char* symbol = "") {
  store::WriteTransaction transaction(store);
  store.market().save_ledger_day({"tushare-pro", date(day), symbol, 5000});
  transaction.commit();
}

} // namespace

TEST_CASE("fetch plan: the last completed trading day at an instant (D18)") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "plan.db"); // the shipped calendar
  // A Friday before and after 15:30 at UTC+8, whatever the machine's zone.
  CHECK(*last_completed_day(store, test::at("2024-03-01", 15, 29)) == date("2024-02-29"));
  CHECK(*last_completed_day(store, test::at("2024-03-01", 15, 30)) == date("2024-03-01"));
  // A Sunday, and the Monday morning after: the Friday.
  CHECK(*last_completed_day(store, test::at("2024-03-03", 12)) == date("2024-03-01"));
  CHECK(*last_completed_day(store, test::at("2024-03-04", 9)) == date("2024-03-01"));
  // 00:30 at UTC+8 is still the previous evening in UTC: the date is UTC+8's.
  CHECK(*last_completed_day(store, test::at("2024-03-05", 0, 30)) == date("2024-03-04"));
  // The Spring Festival: the last day before it.
  CHECK(*last_completed_day(store, test::at("2024-02-14", 20)) == date("2024-02-08"));
  // Past the calendar's end, the day is unknown.
  const auto unknown = last_completed_day(store, test::at("2027-01-05", 16));
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message.find("past the end of the stored calendar (2026-12-31)") != std::string::npos);
}

TEST_CASE("fetch plan: the days a fetch asks for") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "plan.db");
  const auto last = date("2024-03-01");

  SUBCASE("a first fetch without --from: the last 250 open days") {
    const auto plan = plan_fetch(store, {"tushare-pro", {}, std::nullopt, std::nullopt, false}, last);
    REQUIRE(plan);
    CHECK(plan->days.size() == static_cast<std::size_t>(k_first_fetch_days));
    CHECK(plan->days.back() == last);
    CHECK(plan->start == plan->days.front());
    CHECK_FALSE(plan->gap_from.has_value()); // an empty store has nothing to close the gap to
  }
  SUBCASE("a store whose bars end before those days is told the --from that closes the gap") {
    {
      store::WriteTransaction transaction(store);
      store.upsert_bar("600519.SH", test::make_bar("2022-06-30", 10, 11, 9, 10), false);
      store.refresh_symbol("600519.SH");
      store.finish_change("test");
      transaction.commit();
    }
    const auto plan = plan_fetch(store, {"tushare-pro", {}, std::nullopt, std::nullopt, false}, last);
    REQUIRE(plan);
    CHECK(plan->gap_from == date("2022-07-01"));
  }
  SUBCASE("the ledger's days are not asked again, unless --refetch") {
    ledger(store, "2024-02-26");
    ledger(store, "2024-02-27");
    ledger(store, "2024-02-29");
    const auto plan = plan_fetch(store, {"tushare-pro", {}, std::nullopt, std::nullopt, false}, last);
    REQUIRE(plan);
    CHECK(plan->start == date("2024-02-26")); // the first ledger day
    CHECK(plan->days == std::vector<domain::Date>{date("2024-02-28"), date("2024-03-01")});
    const auto again = plan_fetch(store, {"tushare-pro", {}, std::nullopt, std::nullopt, true}, last);
    CHECK(again->days.size() == 5);
  }
  SUBCASE("a fetch naming symbols: a day is held when the whole market or each symbol is") {
    ledger(store, "2024-02-28", "600519.SH");
    ledger(store, "2024-02-29");
    const auto one = plan_fetch(store, {"tushare-pro", {"600519.SH"}, date("2024-02-28"), std::nullopt, false}, last);
    CHECK(one->days == std::vector<domain::Date>{date("2024-03-01")});
    const auto two = plan_fetch(store, {"tushare-pro", {"600519.SH", "000001.SZ"}, date("2024-02-28"), std::nullopt, false}, last);
    CHECK(two->days == std::vector<domain::Date>{date("2024-02-28"), date("2024-03-01")});
    const auto market = plan_fetch(store, {"tushare-pro", {}, date("2024-02-28"), std::nullopt, false}, last);
    CHECK(market->days == std::vector<domain::Date>{date("2024-02-28"), date("2024-03-01")});
  }
  SUBCASE("--to is cut to the last completed day; bad ranges are refused") {
    const auto cut = plan_fetch(store, {"tushare-pro", {}, date("2024-02-28"), date("2024-03-15"), false}, last);
    CHECK(cut->end == last);
    CHECK(cut->days.size() == 3);
    const auto backwards = plan_fetch(store, {"tushare-pro", {}, date("2024-03-01"), date("2024-02-01"), false}, last);
    REQUIRE_FALSE(backwards);
    CHECK(backwards.error().code == ErrorCode::invalid_parameter);
    const auto beyond = plan_fetch(store, {"tushare-pro", {}, date("2027-01-04"), std::nullopt, false}, last);
    REQUIRE_FALSE(beyond);
    CHECK(beyond.error().code == ErrorCode::invalid_input);
  }
}

TEST_CASE("D20: a fetch of the stocks plans from the stocks' ledger rows") {
  test::TempDir dir;
  store::SqliteBarStore store(dir / "plan.db");
  const auto last = date("2024-03-01");
  ledger(store, "2024-02-26");
  {
    store::WriteTransaction transaction(store);
    // A whole day of funds and an index's day: neither holds the stocks of that day.
    store.market().save_ledger_day({"tushare-pro", date("2024-02-27"), "", 900, domain::Kind::fund});
    store.market().save_ledger_day(
        {"tushare-pro", date("2024-02-23"), "000300.SH", 1, domain::Kind::index});
    transaction.commit();
  }
  const auto plan = plan_fetch(store, {"tushare-pro", {}, std::nullopt, std::nullopt, false}, last);
  REQUIRE(plan);
  CHECK(plan->start == date("2024-02-26")); // the stocks' first ledger day, not the index's
  CHECK(plan->days
        == std::vector<domain::Date>{date("2024-02-27"), date("2024-02-28"), date("2024-02-29"),
                                     date("2024-03-01")});
}
