#include "testutil.hpp"

#include "core/import/date_set.hpp"

#include <doctest/doctest.h>

#include <random>
#include <set>

using namespace ashare;

TEST_CASE("import::DateSet") {
  import::DateSet set;
  CHECK_FALSE(set.contains(test::date("2024-01-02")));
  CHECK(set.insert(test::date("2024-01-02")));
  CHECK_FALSE(set.insert(test::date("2024-01-02"))); // already there
  CHECK(set.contains(test::date("2024-01-02")));
  CHECK_FALSE(set.contains(test::date("2024-01-03")));
  CHECK(set.insert(test::date("1990-12-19"))); // grows to the left by whole words
  CHECK(set.insert(test::date("2099-12-31"))); // and to the right
  CHECK(set.contains(test::date("1990-12-19")));
  CHECK(set.contains(test::date("2024-01-02")));
  CHECK(set.contains(test::date("2099-12-31")));
  CHECK_FALSE(set.contains(test::date("1990-12-18")));

  // Against std::set, in random order.
  import::DateSet random_set;
  std::set<int> reference;
  std::mt19937 random(7);
  const auto base = test::date("2000-01-01").days();
  for (int i = 0; i < 5000; ++i) {
    const int day = static_cast<int>(random() % 9000);
    const auto date = domain::Date(base + std::chrono::days(day));
    REQUIRE(random_set.insert(date) == reference.insert(day).second);
  }
  for (int day = -100; day < 9100; ++day) {
    REQUIRE(random_set.contains(domain::Date(base + std::chrono::days(day)))
            == (reference.count(day) != 0));
  }
}
