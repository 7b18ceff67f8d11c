// api::HistoryFiller (issue 35): histories load off the requests' path. A request that makes its
// symbol worth caching is answered without the load (by the bounded read), the filler loads it
// afterwards; a load asked at a generation the store has left is dropped; a store out of reach
// loses the load, never the server.
#include "testutil.hpp"

#include "core/api/dispatch.hpp"
#include "core/api/history_filler.hpp"
#include "core/api/services.hpp"
#include "core/store/sqlite_bar_store.hpp"
#include "support/wait.hpp"

#include <doctest/doctest.h>

#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>

using namespace ashare;

namespace {

struct FillerFixture {
  test::TempDir dir;
  std::filesystem::path db = dir / "ashare.db";
  FillerFixture() {
    store::SqliteBarStore store(db);
    test::import_fixture(store, "bancob_600519.SH.csv");
  }
};

const api::Request k_bars{"GET", "/v1/ohlc/range/1/day/2024-01-01/2024-06-30", "symbol=600519.SH",
                          std::nullopt};
const api::Caller k_pro_caller{0, auth::Plan::pro, false};

} // namespace

TEST_CASE("api::HistoryFiller: a request never waits for its history to load") {
  FillerFixture f;
  api::Services services(f.db.string(), (f.dir / "ashare-keys.db").string());
  const auto generation = services.bars.acquire()->load_generation();
  {
    const api::HistoryFiller::Hold hold(services.filler);
    const auto first = api::dispatch_trusted(k_bars, services, k_pro_caller);
    CHECK(first.status == 200);
    CHECK(services.filler.pending() == 0); // a first miss is not worth loading (admit)
    const auto second = api::dispatch_trusted(k_bars, services, k_pro_caller);
    CHECK(second.status == 200);
    CHECK(!services.histories.find("600519.SH", generation)); // not loaded on its path
    CHECK(services.filler.pending() == 1);
    CHECK(api::dispatch_trusted(k_bars, services, k_pro_caller).status == 200);
    CHECK(services.filler.pending() == 1); // asked once, however often requests ask
  }
  test::await_idle(services.filler);
  CHECK(services.filler.pending() == 0);
  CHECK(services.histories.find("600519.SH", generation).rendered);
}

TEST_CASE("api::HistoryFiller: a load asked at a generation the store has left is dropped") {
  FillerFixture f;
  api::Services services(f.db.string(), (f.dir / "ashare-keys.db").string());
  const auto generation = services.bars.acquire()->load_generation();
  const auto factor = query::load_catalog(*services.bars.acquire())->find("600519.SH")->latest_factor;
  services.filler.request("600519.SH", factor, api::HistoryForm::rendered, generation - 1);
  test::await_idle(services.filler);
  CHECK(services.histories.bytes() == 0);
  services.filler.request("600519.SH", factor, api::HistoryForm::compact, generation);
  test::await_idle(services.filler);
  CHECK(services.histories.find("600519.SH", generation).compact);
  services.filler.request("600519.SH", factor, api::HistoryForm::rendered, generation);
  test::await_idle(services.filler);
  CHECK(services.histories.find("600519.SH", generation).rendered);
  // A compact load never replaces the rendered form.
  services.filler.request("600519.SH", factor, api::HistoryForm::compact, generation);
  test::await_idle(services.filler);
  CHECK(services.histories.find("600519.SH", generation).rendered);
}

TEST_CASE("api::HistoryFiller: a store out of reach loses the load, not the server") {
  api::HistoryCache histories(1u << 20);
  store::ConnectionPool<store::BarStore> unreachable(
    []() -> std::unique_ptr<store::BarStore> { throw std::runtime_error("no store"); });
  api::HistoryFiller filler(unreachable, histories);
  filler.request("600519.SH", 1.0, api::HistoryForm::rendered, 1);
  test::await_idle(filler);
  CHECK(filler.pending() == 0);
  CHECK(histories.bytes() == 0);
  filler.request("600519.SH", 1.0, api::HistoryForm::rendered, 1); // asked again, tried again
  test::await_idle(filler);
  CHECK(histories.bytes() == 0);
}

TEST_CASE("api::HistoryFiller: it stops with loads still asked") {
  // A store that cannot be opened, whose opening counts the loads begun and holds the first one
  // until the test releases it: the load under way when the filler is destroyed.
  std::mutex mutex;
  std::condition_variable changed;
  int loads = 0;
  bool released = false;
  api::HistoryCache histories(1u << 20);
  store::ConnectionPool<store::BarStore> pool([&]() -> std::unique_ptr<store::BarStore> {
    std::unique_lock lock(mutex);
    if (++loads == 1) {
      changed.notify_all();
      changed.wait_for(lock, test::k_patience, [&] { return released; });
    }
    throw std::runtime_error("no store");
  });
  auto filler = std::make_unique<api::HistoryFiller>(pool, histories);
  {
    const api::HistoryFiller::Hold hold(*filler);
    for (std::size_t i = 0; i < api::HistoryFiller::k_max_pending + 100; ++i) {
      filler->request(std::to_string(100000 + i) + ".SZ", 1.0, api::HistoryForm::compact, 1);
    }
    CHECK(filler->pending() == api::HistoryFiller::k_max_pending); // the rest dropped
  }
  {
    std::unique_lock lock(mutex);
    REQUIRE(changed.wait_for(lock, test::k_patience, [&] { return loads == 1; }));
  }
  // Destroyed with the first load under way and the others asked: it drops those at once (its
  // members live until its destructor returns, which waits for the load under way), ...
  auto* stopping = filler.release();
  auto destroyed = std::async(std::launch::async, [stopping] { delete stopping; });
  REQUIRE(test::poll_until([&] { return stopping->pending() == 1; }));
  {
    std::lock_guard lock(mutex);
    released = true;
  }
  changed.notify_all();
  // ... and returns once that load ends, having begun no other.
  REQUIRE(destroyed.wait_for(test::k_patience) == std::future_status::ready);
  CHECK(loads == 1);
  CHECK(histories.bytes() == 0);
}
