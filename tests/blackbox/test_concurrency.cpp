// D7's atomic charging under concurrency, within one server and across two servers on one store,
// and the store serving while an import runs (WAL): the new as_of appears without a restart.
#include "burst.hpp"
#include "fixtures.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <fstream>
#include <latch>
#include <map>
#include <set>
#include <thread>

using namespace bb;

namespace {

// Check a burst of 1-credit requests on a key that had 20 credits.
void check_twenty_of_fifty(const std::vector<Outcome>& outcomes) {
  std::map<int, int> by_status;
  std::multiset<std::string> remaining_after_success;
  for (const auto& outcome : outcomes) {
    CAPTURE(outcome.error);
    ++by_status[outcome.status];
    if (outcome.status == 200) {
      remaining_after_success.insert(outcome.remaining);
      CHECK(outcome.charged == 1);
    } else {
      CHECK(outcome.remaining == "0");
    }
  }
  CHECK(by_status == std::map<int, int>{{200, 20}, {402, 30}});
  // Each success saw its own balance after its own charge: 19, 18, ..., 0, each once.
  std::multiset<std::string> expected;
  for (int balance = 0; balance < 20; ++balance) {
    expected.insert(std::to_string(balance));
  }
  CHECK(remaining_after_success == expected);
}

std::string iso_day(std::chrono::sys_days day) {
  const std::chrono::year_month_day ymd{day};
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

} // namespace

TEST_CASE("D7: 50 concurrent requests on a key with 20 credits: exactly 20 succeed") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv"), fixture("bancob_600036.SH.csv")});
  const auto target = bars_target("2024-01-02", "2024-12-31", "symbol=600519.SH");

  SUBCASE("one server") {
    const auto key = store.create_key("pro", 20, "burst");
    ServerProcess server(store);
    check_twenty_of_fifty(burst({server.port()}, target, key.plaintext, 50));
    CHECK(store.listed_credits(key.id) == "0");
    const auto after = request(server.port(), target, key.plaintext);
    CHECK(after.status == 402);
    CHECK(after.header("X-Credits-Remaining") == "0");
  }
  SUBCASE("two servers on one store") {
    const auto key = store.create_key("pro", 20, "burst2");
    ServerProcess first(store);
    ServerProcess second(store);
    REQUIRE(first.port() != second.port());
    check_twenty_of_fifty(burst({first.port(), second.port()}, target, key.plaintext, 50));
    CHECK(store.listed_credits(key.id) == "0");
    CHECK(request(first.port(), target, key.plaintext).status == 402);
    CHECK(request(second.port(), target, key.plaintext).status == 402);
  }
  SUBCASE("two servers, 2-credit requests on 21 credits: 10 succeed, 1 credit left") {
    const auto key = store.create_key("pro", 21, "burst3");
    ServerProcess first(store);
    ServerProcess second(store);
    const auto two = bars_target("2024-01-02", "2024-12-31", "symbol=600519.SH,600036.SH");
    const auto outcomes = burst({first.port(), second.port()}, two, key.plaintext, 50);
    std::map<int, int> by_status;
    for (const auto& outcome : outcomes) {
      ++by_status[outcome.status];
      if (outcome.status == 200) {
        CHECK(outcome.charged == 2);
      } else {
        CHECK(outcome.remaining == "1");
      }
    }
    CHECK(by_status == std::map<int, int>{{200, 10}, {402, 40}});
    CHECK(store.listed_credits(key.id) == "1");
  }
}

TEST_CASE("WAL: the server keeps answering during an import and then reports the new as_of") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro", 1'000'000, "reader");
  ServerProcess server(store);
  const auto port = server.port();

  // 300,000 valid bars of 30 new symbols, each on 10,000 consecutive calendar days up to
  // 2025-11-28 (D16: no trade date before 1990-12-19).
  const std::string new_as_of = "2025-11-28";
  const auto big = store.dir() / "big.csv";
  {
    std::ofstream out(big);
    out << "symbol,trade_date,open,high,low,close,volume,turnover\n";
    const auto last = std::chrono::sys_days{std::chrono::year{2025} / 11 / 28};
    constexpr int k_days = 10'000;
    for (int s = 0; s < 30; ++s) {
      for (int i = k_days - 1; i >= 0; --i) {
        out << 900100 + s << ".SZ," << iso_day(last - std::chrono::days{i}) << ",10.5,12.25,9.75,"
            << (i % 2 == 0 ? "11.125" : "10.875") << "," << 1000 + i << ",11000.5\n";
      }
    }
  }

  const auto bars_request = bars_target("2024-01-02", "2024-01-31", "symbol=600519.SH");
  const auto expected_bars = request(port, bars_request, key.plaintext);
  REQUIRE(expected_bars.status == 200);
  const auto expected_ohlc = expected_bars.json()["ohlc"];

  Process import({ashare_bin(), "--db", store.data_locator(), "import", big.string()},
                 {"HOME=" + store.dir().string()});
  // Answers that came while the import was still running, from before to after them: the
  // readers do not wait for the writer (WAL). How long they take meanwhile is
  // bench/serve_timings.py's figure.
  int answered_during_import = 0;
  bool saw_new = false;
  bool went_back = false;
  bool import_ended = false;
  const auto deadline = Clock::now() + 240s;
  for (int i = 0; i < 100'000 && Clock::now() < deadline; ++i) {
    const bool running = !import.exited();
    const auto health = request(port, "/healthz", std::nullopt);
    const auto reply = request(port, bars_request, key.plaintext);
    const bool still_running = !import.exited();
    INFO("health: " << health.transport_error << "; bars: " << reply.transport_error);
    REQUIRE(health.status == 200);
    REQUIRE(reply.status == 200);
    CHECK(reply.json()["ohlc"] == expected_ohlc);
    const auto as_of = health.json()["as_of"].get<std::string>();
    CHECK((as_of == k_fixture_as_of || as_of == new_as_of));
    went_back = went_back || (saw_new && as_of == k_fixture_as_of);
    saw_new = saw_new || as_of == new_as_of;
    if (!running) {
      import_ended = true;
      break;
    }
    answered_during_import += still_running ? 1 : 0;
  }
  // Asked until the import ended, not until the loop gave up: what came after it is checked too.
  CHECK_MESSAGE(import_ended, "the import still ran after 240 s of requests");
  const auto status = import.wait_for_exit(120s);
  REQUIRE(status.has_value());
  CHECK(*status == 0);
  import.wait_for_output_closed(10s);
  CHECK(import.stdout_text()
        == big.string() + ": canonical, loaded 300000 rows for 30 symbols, no factors (1.0); as_of "
             + new_as_of + "\n");
  INFO("answered during the import: " << answered_during_import);
  CHECK(answered_during_import >= 3);
  CHECK_FALSE(went_back);

  // The same server process, not restarted, now reports the new data.
  CHECK_FALSE(server.process().exited());
  const auto health = request(port, "/healthz", std::nullopt);
  CHECK(health.json()["as_of"] == new_as_of);
  const auto fresh =
      request(port, bars_target("2025-11-27", "2025-11-28", "symbol=900100.SZ"), key.plaintext);
  REQUIRE(fresh.status == 200);
  CHECK(dates_of(fresh.json()["ohlc"]) == std::vector<std::string>{"2025-11-27", "2025-11-28"});
  CHECK(fresh.json()["meta"]["as_of"] == new_as_of);
  CHECK(fresh.json()["ohlc"][1]["change_pct"].get<double>()
        == ((11.125 * 1.0) / (10.875 * 1.0) - 1) * 100);
  // 600519.SH keeps its own latest factor: its adjusted bars did not move.
  CHECK(request(port, bars_request, key.plaintext).json()["ohlc"] == expected_ohlc);
}
