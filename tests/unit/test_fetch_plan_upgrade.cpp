// D20's ledger per kind over an upgraded store (issue 44), on either backend (store_backend.hpp):
// a store fetched before D20 holds whole-market ledger rows that were the stocks'; upgraded, its
// stocks are up to date and its funds and indices, which have no rows of their own, are planned
// for the default 250 open days.
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/domain/shipped_calendar.hpp"
#include "core/fetch/plan.hpp"
#include "core/store/bar_store.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace ashare;
using test::date;

TEST_CASE("D20: a store fetched before D20, upgraded, plans its funds and indices and not its stocks") {
  test::StoreBackend backend;
  const bool sqlite = std::string(test::StoreBackend::name()) == "sqlite";
  const auto last = date("2024-03-01");
  // Whole-market rows on the open days of February 2024 and 2024-03-01 (the shipped calendar).
  std::vector<domain::Date> month;
  for (const auto day : domain::shipped_open_dates()) {
    if (day >= date("2024-02-01") && day <= last) {
      month.push_back(day);
    }
  }
  backend.make_data_store_at(sqlite ? 7 : 5); // the last schema before D20
  std::string rows;
  for (const auto day : month) {
    rows += std::string(rows.empty() ? "" : ", ") + "('tushare-pro', " + std::to_string(day.yyyymmdd()) + ", '', 5000)";
  }
  REQUIRE(month.size() == 16); // the Spring Festival closed 2024-02-09..2024-02-16
  backend.exec_data_sql("INSERT INTO fetch_ledger(provider, trade_date, symbol, rows) VALUES " + rows + ";");
  const auto store = backend.open_bars(); // migrates
  const fetch::PlanRequest request{"tushare-pro", {}, std::nullopt, std::nullopt, false};
  const auto stocks = fetch::plan_fetch(*store, request, last, {domain::Kind::stock, {}});
  REQUIRE(stocks);
  CHECK(stocks->start == date("2024-02-01"));
  CHECK(stocks->days.empty()); // up to date: never fetched again
  const auto funds = fetch::plan_fetch(*store, request, last, {domain::Kind::fund, {}});
  REQUIRE(funds);
  CHECK(funds->days.size() == static_cast<std::size_t>(fetch::k_first_fetch_days));
  CHECK(funds->days.back() == last);
  const auto indices = fetch::plan_fetch(*store, request, last, {domain::Kind::index, {"000300.SH", "000905.SH"}});
  REQUIRE(indices);
  CHECK(indices->days == funds->days);
}
