// What `ashare info` says of the ledger (fetch/ledger_status.hpp): here, D20's ledger per kind.
#include "testutil.hpp"

#include "core/fetch/ledger_status.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using test::date;

TEST_CASE("fetch::ledger_status: whole days are the stocks'; funds and indices have their own last day (D20)") {
  test::TempDir dir;
  store::SqliteBarStore store{dir / "ledger.db"};
  {
    store::WriteTransaction transaction(store);
    auto& market = store.market();
    market.save_ledger_day({"tushare-pro", date("2024-06-17"), "", 5300, domain::Kind::stock});
    market.save_ledger_day({"tushare-pro", date("2024-06-17"), "", 1000, domain::Kind::fund});
    market.save_ledger_day({"tushare-pro", date("2024-06-18"), "", 1001, domain::Kind::fund});
    market.save_ledger_day({"tushare-pro", date("2024-06-18"), "", 8, domain::Kind::index});
    market.save_ledger_day({"tushare-pro", date("2024-06-14"), "", 8, domain::Kind::index});
    transaction.commit();
  }
  const auto status = fetch::ledger_status(store, std::chrono::sys_days{std::chrono::year{2024} / 6 / 19});
  REQUIRE(status.providers.size() == 1);
  const auto& provider = status.providers[0];
  CHECK(provider.last_whole == date("2024-06-17"));
  CHECK(provider.whole_days == 1);
  CHECK(provider.first == date("2024-06-14"));
  CHECK(provider.last_whole_of_kind
        == std::map<domain::Kind, domain::Date>{{domain::Kind::index, date("2024-06-18")},
                                                {domain::Kind::fund, date("2024-06-18")}});
}
