// D19's shipped Beijing code table (data/bj_codes/): its rows as the checks of its README say.
#include "core/domain/shipped_bj_codes.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace ashare::domain;

TEST_CASE("shipped Beijing codes: 248 rows, each code once, 26 not keeping their last digits") {
  const auto rows = shipped_bj_code_changes();
  REQUIRE(rows.size() == 248);
  std::set<std::int32_t> olds, news;
  int renumbered = 0;
  for (const auto& row : rows) {
    olds.insert(row.old_code);
    news.insert(row.new_code);
    const int prefix = row.old_code / 10'000;
    CHECK((prefix == 43 || prefix == 83 || prefix == 87));
    CHECK(row.new_code / 1'000 == 920);
    renumbered += row.old_code % 1'000 != row.new_code % 1'000 ? 1 : 0;
  }
  CHECK(olds.size() == 248);
  CHECK(news.size() == 248);
  CHECK(renumbered == 26);
}

TEST_CASE("shipped Beijing codes: each way, by canonical symbol") {
  // Tushare's documented example, the independent list's rows, renumbered ones, and the BJ stock
  // of the bundled daily files.
  const std::pair<const char*, const char*> known[] = {
      {"838163.BJ", "920163.BJ"}, {"832522.BJ", "920522.BJ"}, {"833284.BJ", "920284.BJ"},
      {"832982.BJ", "920982.BJ"}, {"837023.BJ", "920123.BJ"}, {"871694.BJ", "920694.BJ"},
      {"873703.BJ", "920703.BJ"}, {"831396.BJ", "920496.BJ"}, {"870726.BJ", "920926.BJ"},
      {"430047.BJ", "920047.BJ"}};
  for (const auto& [old_symbol, new_symbol] : known) {
    CAPTURE(old_symbol);
    CHECK(shipped_new_bj_symbol(old_symbol) == new_symbol);
    CHECK(shipped_old_bj_symbol(new_symbol) == old_symbol);
  }
  CHECK_FALSE(shipped_new_bj_symbol("920163.BJ"));
  CHECK_FALSE(shipped_old_bj_symbol("838163.BJ"));
  CHECK_FALSE(shipped_new_bj_symbol("838163.SZ"));
  CHECK_FALSE(shipped_new_bj_symbol("600519.SH"));
  CHECK_FALSE(shipped_new_bj_symbol("83816.BJ"));
  CHECK_FALSE(shipped_new_bj_symbol(""));
}
