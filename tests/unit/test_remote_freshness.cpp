// When remote mode asks the remote's as_of again (remote/freshness): at most once after each
// session close.
#include "testutil.hpp"

#include "core/remote/freshness.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ashare;
using test::date;

namespace {

// Unix ms of `iso` at `hh`:`mm` UTC+8.
std::int64_t ms_at_utc8(std::string_view iso, int hh, int mm) {
  return date(iso).t_ms() + (hh * 60 + mm) * 60'000LL;
}

} // namespace

TEST_CASE("remote::latest_session_close: 15:00 UTC+8 on a weekday") {
  struct Row {
    const char* name;
    std::int64_t now;
    std::int64_t close;
  };
  // 2024-01-05 is a Friday, 2024-01-08 a Monday.
  const std::vector<Row> rows{
      {"Friday after the close", ms_at_utc8("2024-01-05", 16, 0), ms_at_utc8("2024-01-05", 15, 0)},
      {"Friday at the close", ms_at_utc8("2024-01-05", 15, 0), ms_at_utc8("2024-01-05", 15, 0)},
      {"Friday before the close", ms_at_utc8("2024-01-05", 14, 59), ms_at_utc8("2024-01-04", 15, 0)},
      {"Saturday", ms_at_utc8("2024-01-06", 12, 0), ms_at_utc8("2024-01-05", 15, 0)},
      {"Sunday night", ms_at_utc8("2024-01-07", 23, 59), ms_at_utc8("2024-01-05", 15, 0)},
      {"Monday morning", ms_at_utc8("2024-01-08", 9, 30), ms_at_utc8("2024-01-05", 15, 0)},
      {"Monday 07:00 UTC is 15:00 UTC+8", 1'704'697'200'000, 1'704'697'200'000},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    CHECK(remote::latest_session_close(row.now) == row.close);
  }
}

TEST_CASE("remote::is_check_due: at most once after each session close") {
  const auto friday_close = ms_at_utc8("2024-01-05", 15, 0);
  CHECK(remote::is_check_due(std::nullopt, friday_close)); // never asked
  // Asked after Friday's close: nothing new until Monday's close.
  const auto asked = ms_at_utc8("2024-01-05", 16, 0);
  CHECK_FALSE(remote::is_check_due(asked, ms_at_utc8("2024-01-06", 12, 0)));
  CHECK_FALSE(remote::is_check_due(asked, ms_at_utc8("2024-01-08", 14, 59)));
  CHECK(remote::is_check_due(asked, ms_at_utc8("2024-01-08", 15, 0)));
  // Asked before Friday's close: due once it passed.
  CHECK(remote::is_check_due(ms_at_utc8("2024-01-05", 14, 0), ms_at_utc8("2024-01-05", 15, 1)));
}
