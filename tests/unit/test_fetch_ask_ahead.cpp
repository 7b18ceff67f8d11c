#include "testutil.hpp"

#include "core/fetch/ask_ahead.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>

using namespace ashare;
using namespace ashare::fetch;
using namespace std::chrono_literals;
using test::date;

namespace {

struct Asked {
  domain::Date day;
  bool ends = false;
};

using DaysAhead = AskAhead<domain::Date, Asked, int>;

std::vector<domain::Date> five_days() {
  return {date("2024-01-02"), date("2024-01-03"), date("2024-01-04"), date("2024-01-05"),
          date("2024-01-08")};
}

} // namespace

TEST_CASE("AskAhead: the days' answers in order, never more than `depth` waiting") {
  std::atomic<int> asker = 0;
  std::atomic<int> asked = 0;
  DaysAhead ahead(five_days(), 2,
                      [&](const domain::Date& day, const DaysAhead::Tell&) {
                        asker = test::thread_id();
                        ++asked;
                        return Asked{day};
                      },
                      [](const Asked& answer) { return answer.ends; });
  REQUIRE(ahead.at_hand_within(10s));
  // Nothing is taken: the asking thread went as far ahead as it will once it sleeps after its
  // second answer (it does not sleep between two asks), or it asked a third.
  REQUIRE(test::poll_until(
      [&] { return asked > 2 || (asked == 2 && test::thread_sleeps(asker)); }));
  CHECK(asked <= 2);
  int taken = 0;
  for (const auto day : five_days()) {
    const auto answer = ahead.take();
    REQUIRE(answer);
    CHECK(answer->day == day);
    ++taken;
    CHECK(asked <= taken + 2);
  }
  CHECK(asked == 5);
  // The asking thread ends after the last answer, perhaps after it was taken: then there is
  // nothing more to come, and both return at once.
  CHECK(ahead.at_hand_within(test::k_patience));
  CHECK(ahead.at_hand_within(0s));
  CHECK_FALSE(ahead.take());
}

TEST_CASE("AskAhead: an answer that ends the fetch ends the asking") {
  std::atomic<int> asked = 0;
  DaysAhead ahead(five_days(), 3,
                      [&](const domain::Date& day, const DaysAhead::Tell&) {
                        ++asked;
                        return Asked{day, day == date("2024-01-03")};
                      },
                      [](const Asked& answer) { return answer.ends; });
  CHECK(ahead.take()->day == date("2024-01-02"));
  CHECK(ahead.take()->ends);
  CHECK_FALSE(ahead.take());
  CHECK(asked == 2);
}

TEST_CASE("AskAhead: what asking throws is thrown where the answer is taken") {
  DaysAhead ahead(five_days(), 2,
                      [](const domain::Date& day, const DaysAhead::Tell&) {
                        if (day == date("2024-01-03")) {
                          throw std::runtime_error("store gone");
                        }
                        return Asked{day};
                      },
                      [](const Asked&) { return false; });
  CHECK(ahead.take()->day == date("2024-01-02"));
  CHECK_THROWS_WITH(ahead.take(), "store gone");
  CHECK_FALSE(ahead.take());
}

TEST_CASE("AskAhead: dropped with answers waiting, it stops asking") {
  std::atomic<int> asker = 0;
  std::atomic<int> asked = 0;
  {
    DaysAhead ahead(five_days(), 1,
                        [&](const domain::Date& day, const DaysAhead::Tell&) {
                          asker = test::thread_id();
                          ++asked;
                          return Asked{day};
                        },
                        [](const Asked&) { return false; });
    REQUIRE(ahead.at_hand_within(10s));
    REQUIRE(test::poll_until([&] { return asked > 1 || test::thread_sleeps(asker); }));
  } // the asking thread waits for room: the destructor must end it
  CHECK(asked == 1);
}

TEST_CASE("AskAhead: what the asking tells is handed to the taking thread, before its answer") {
  const auto taker = std::this_thread::get_id();
  std::vector<int> told;
  bool on_taker = true;
  DaysAhead ahead(five_days(), 1,
              [](const domain::Date& day, const DaysAhead::Tell& tell) {
                tell(day.yyyymmdd() % 100);
                tell(-1);
                return Asked{day};
              },
              [](const Asked&) { return false; });
  const auto note = [&](const int& value) {
    on_taker = on_taker && std::this_thread::get_id() == taker;
    told.push_back(value);
  };
  CHECK(ahead.take(note)->day == date("2024-01-02"));
  CHECK(told == std::vector<int>{2, -1});
  REQUIRE(ahead.at_hand_within(10s, note));
  CHECK(told == std::vector<int>{2, -1, 3, -1});
  CHECK(ahead.take(note)->day == date("2024-01-03"));
  CHECK(on_taker);
}
