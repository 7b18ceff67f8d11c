#include "testutil.hpp"

#include "core/fetch/ahead.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>

using namespace ashare;
using namespace ashare::fetch;
using namespace std::chrono_literals;
using test::date;

namespace {

struct Answer {
  domain::Date day;
  bool ends = false;
};

std::vector<domain::Date> five_days() {
  return {date("2024-01-02"), date("2024-01-03"), date("2024-01-04"), date("2024-01-05"),
          date("2024-01-08")};
}

} // namespace

TEST_CASE("Ahead: the days' answers in order, never more than `depth` waiting") {
  std::atomic<int> asked = 0;
  Ahead<Answer> ahead(five_days(), 2,
                      [&](domain::Date day) {
                        ++asked;
                        return Answer{day};
                      },
                      [](const Answer& answer) { return answer.ends; });
  REQUIRE(ahead.at_hand_within(10s));
  std::this_thread::sleep_for(50ms); // room for the asking thread to run ahead, if it would
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
  CHECK(ahead.at_hand_within(0s)); // nothing more to come: taking returns at once
  CHECK_FALSE(ahead.take());
}

TEST_CASE("Ahead: an answer that ends the fetch ends the asking") {
  std::atomic<int> asked = 0;
  Ahead<Answer> ahead(five_days(), 3,
                      [&](domain::Date day) {
                        ++asked;
                        return Answer{day, day == date("2024-01-03")};
                      },
                      [](const Answer& answer) { return answer.ends; });
  CHECK(ahead.take()->day == date("2024-01-02"));
  CHECK(ahead.take()->ends);
  CHECK_FALSE(ahead.take());
  CHECK(asked == 2);
}

TEST_CASE("Ahead: what asking throws is thrown where the answer is taken") {
  Ahead<Answer> ahead(five_days(), 2,
                      [](domain::Date day) {
                        if (day == date("2024-01-03")) {
                          throw std::runtime_error("store gone");
                        }
                        return Answer{day};
                      },
                      [](const Answer&) { return false; });
  CHECK(ahead.take()->day == date("2024-01-02"));
  CHECK_THROWS_WITH(ahead.take(), "store gone");
  CHECK_FALSE(ahead.take());
}

TEST_CASE("Ahead: dropped with answers waiting, it stops asking") {
  std::atomic<int> asked = 0;
  {
    Ahead<Answer> ahead(five_days(), 1,
                        [&](domain::Date day) {
                          ++asked;
                          return Answer{day};
                        },
                        [](const Answer&) { return false; });
    REQUIRE(ahead.at_hand_within(10s));
  } // the asking thread waits for room: the destructor must end it
  CHECK(asked == 1);
}
