// server::BatchWindow and server::ChargeBatcher (issue 35: group commit): a batch of charges waits
// for more only while charges arrive fast, and every credit stays exact.
#include "server/batch_window.hpp"
#include "server/charge_batcher.hpp"

#include "core/api/services.hpp"
#include "support/wait.hpp"
#include "testutil.hpp"

#include <doctest/doctest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <set>
#include <thread>

using namespace ashare;
using server::BatchWindow;
using namespace std::chrono_literals;

namespace {

// Count `charges` charges spread evenly over `span` from `start`; return the time after them.
BatchWindow::Clock::time_point count_evenly(BatchWindow& window,
                                            BatchWindow::Clock::time_point start,
                                            int charges,
                                            BatchWindow::Clock::duration span) {
  for (int i = 0; i < charges; ++i) {
    window.count(start + span * i / charges);
  }
  return start + span;
}

// A clock for ChargeBatcher that moves 250 us at each reading: charges at 4,000 a second, busy.
std::atomic<BatchWindow::Clock::rep> g_fake_now{0};
BatchWindow::Clock::time_point fake_now() {
  return BatchWindow::Clock::time_point(
    BatchWindow::Clock::duration(g_fake_now += BatchWindow::Clock::duration(250us).count()));
}

} // namespace

TEST_CASE("server::BatchWindow: a batch waits only while charges come fast enough") {
  BatchWindow window;
  const BatchWindow::Clock::time_point t0{std::chrono::hours(1)};
  REQUIRE_FALSE(window.busy());
  CHECK(window.wait_for(1) == BatchWindow::Clock::duration::zero());

  SUBCASE("at 4,000 charges a second, from the window after the first") {
    // The first charge opens the first window; the next after it closes the window.
    const auto t = count_evenly(window, t0, 200, BatchWindow::k_rate_window);
    CHECK_FALSE(window.busy());
    window.count(t);
    CHECK(window.busy());
    CHECK(window.wait_for(1) == BatchWindow::k_max_wait);
    CHECK(window.wait_for(BatchWindow::k_full - 1) == BatchWindow::k_max_wait);
    CHECK(window.wait_for(BatchWindow::k_full) == BatchWindow::Clock::duration::zero());

    SUBCASE("and no longer after a pause: the pause counts in the window it ends") {
      window.count(t + 1s);
      CHECK_FALSE(window.busy());
      CHECK(window.wait_for(1) == BatchWindow::Clock::duration::zero());
    }
  }
  SUBCASE("at 2,000 a second, two charges within the longest wait: busy") {
    const auto t = count_evenly(window, t0, 100, BatchWindow::k_rate_window);
    window.count(t);
    CHECK(window.busy());
  }
  SUBCASE("at 1,000 a second, one charge within the longest wait: not worth waiting for") {
    const auto t = count_evenly(window, t0, 50, BatchWindow::k_rate_window);
    window.count(t);
    CHECK_FALSE(window.busy());
  }
}

TEST_CASE("server::ChargeBatcher: under load a batch waits for more charges, and credits stay exact") {
  test::TempDir dir;
  const auto keys_path = dir / "ashare-keys.db";
  constexpr std::int64_t k_credits = 1'000'000'000;
  const auto key = test::create_key(keys_path, auth::Plan::pro, k_credits);
  api::Services services((dir / "ashare.db").string(), keys_path.string());
  boost::asio::thread_pool workers(2);
  boost::asio::io_context home;
  auto guard = boost::asio::make_work_guard(home);
  std::thread home_thread([&] { home.run(); });
  server::ChargeBatcher batcher(services, workers, BatchWindow::k_max_wait, &fake_now);
  std::mutex mutex;
  std::vector<std::optional<std::int64_t>> balances; // as charged, in the order answered
  std::atomic<int> failed{0};
  std::atomic<int> answered{0};
  const auto submit = [&](std::function<void()> also = {}) {
    batcher.submit(store::ChargeRequest{key.id, 1}, home,
                   [&, also](std::optional<store::ChargeResult> result, bool) {
                     if (!result || !result->charged) {
                       ++failed;
                     } else {
                       std::lock_guard lock(mutex);
                       balances.push_back(result->balance);
                     }
                     if (also) {
                       also();
                     }
                     ++answered;
                   });
  };
  const auto wait_answered = [&](int count) {
    REQUIRE(test::poll_until([&] { return answered >= count; }, test::k_patience, 1ms));
  };

  // 1,000 charges, 250 ms by the batcher's clock: busy after the first 50 ms.
  int submitted = 0;
  for (; submitted < 1000; ++submitted) {
    submit();
  }
  wait_answered(submitted);

  // A charge alone now waits the longest wait for company, in real time.
  const auto alone = BatchWindow::Clock::now();
  std::atomic<BatchWindow::Clock::rep> waited{0};
  submit([&] { waited = (BatchWindow::Clock::now() - alone).count(); });
  ++submitted;
  wait_answered(submitted);
  CHECK(BatchWindow::Clock::duration(waited.load()) >= BatchWindow::k_max_wait);

  guard.reset();
  home_thread.join();
  workers.join();
  CHECK(failed == 0);
  REQUIRE(static_cast<int>(balances.size()) == submitted);
  // Every charge took one credit of its own: the balances are all different and exact.
  const std::set<std::optional<std::int64_t>> distinct(balances.begin(), balances.end());
  CHECK(static_cast<int>(distinct.size()) == submitted);
  CHECK(*distinct.begin() == k_credits - submitted);
  CHECK(services.keys.acquire()->load_balance(key.id) == k_credits - submitted);
}
