// D20: the membership file `import --format members` reads (members/announcements.hpp): its
// header, symbols in either spelling, the edge rows, and the spans it gives over open days; and
// the import into the store (members/import_members.hpp).
#include "store_backend.hpp"
#include "support/temp_dir.hpp"
#include "testutil.hpp"

#include "core/members/announcements.hpp"
#include "core/members/import_members.hpp"
#include "core/members/open_days.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ashare;
using store::MemberSource;
using store::MemberSpan;
using test::date;

namespace {

Result<members::Announcements> parse_text(const std::string& text) {
  std::istringstream in(text);
  return members::parse_announcements(in, "m.csv");
}

MemberSpan imported_span(const std::string& symbol,
                         const char* first,
                         std::optional<const char*> last = std::nullopt) {
  return {"000300.SH", symbol, date(first), last ? std::optional(date(*last)) : std::nullopt,
          MemberSource::import};
}

// The shipped calendar's open days of 2023 .. 2024 (a store's, read once).
members::OpenDays shipped_days() {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  return members::load_open_days(store->market());
}

} // namespace

TEST_CASE("D20: members::parse_member_symbol reads qlib's and D1's spellings") {
  CHECK(*members::parse_member_symbol("SH600000") == "600000.SH");
  CHECK(*members::parse_member_symbol("sz000001") == "000001.SZ");
  CHECK(*members::parse_member_symbol("600000.sh") == "600000.SH");
  CHECK(members::parse_member_symbol("SH60000").error().code == ErrorCode::invalid_symbol);
  CHECK(members::parse_member_symbol("XX600000").error().code == ErrorCode::invalid_symbol);
}

TEST_CASE("D20: members::parse_announcements") {
  SUBCASE("a byte order mark, rows of either spelling, a row without opt-in skipped") {
    const auto file = parse_text("\xEF\xBB\xBFsymbol,name,opt-in,opt-out\n"
                                 "SZ000001,平安银行,2005-04-08,\n"
                                 "SH600312,平高电气,,2012-01-01\n"
                                 "600004.SH,白云机场,2005-04-08,2012-01-01\r\n");
    REQUIRE(file);
    REQUIRE(file->rows.size() == 2);
    CHECK(file->rows[0].symbol == "000001.SZ");
    CHECK(file->rows[0].line == 2);
    CHECK(!file->rows[0].opt_out);
    CHECK(file->rows[1].symbol == "600004.SH");
    CHECK(file->rows[1].opt_out == date("2012-01-01"));
    CHECK(file->warnings
          == std::vector<std::string>{"m.csv:3: 600312.SH has no opt-in date: row skipped"});
  }
  SUBCASE("name is optional, the columns found by the header") {
    const auto file = parse_text("opt-out,symbol,opt-in\n,SH600519,2005-04-08\n");
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    CHECK(file->rows[0].symbol == "600519.SH");
  }
  SUBCASE("what refuses the file names its line") {
    CHECK(parse_text("symbol,trade_date\n").error().message
          == "m.csv: not a membership file: expected the header symbol,name,opt-in,opt-out");
    CHECK(parse_text("symbol,name,opt-in,opt-out\nSH600000,x,2005-13-01,\n").error().message
          == "m.csv:2: invalid opt-in \"2005-13-01\": not a real calendar date");
    CHECK(parse_text("symbol,name,opt-in,opt-out\nSH600000,x\n").error().message
          == "m.csv:2: expected 4 fields, got 2");
    CHECK(parse_text("symbol,name,opt-in,opt-out\nSH6000,x,2005-04-08,\n").error().code
          == ErrorCode::invalid_input);
  }
}

TEST_CASE("D20: members::spans_of_announcements") {
  const auto days = shipped_days();
  std::vector<std::string> warnings;
  const std::vector<members::AnnouncedSpan> rows{
      // 2023-06-10 is a Saturday: the span starts Monday 2023-06-12.
      {2, "600004.SH", date("2023-06-10"), date("2024-06-17")},
      // opt-out is the first day no longer a member: the last is the open day before (a Friday).
      {3, "000001.SZ", date("2023-01-03"), date("2023-12-11")},
      // overlapping spans of one symbol merge (to the later end; open stays open).
      {4, "000001.SZ", date("2023-12-01"), std::nullopt},
      {5, "600519.SH", date("2023-01-03"), date("2023-06-30")},
      {6, "600519.SH", date("2023-03-01"), date("2023-05-04")},
      // a member on no open day: skipped, with a warning.
      {7, "600036.SH", date("2023-01-01"), date("2023-01-02")},
      // opt-out on a closed day moves to the next open day first (2023-10-02 .. 06: National Day).
      {8, "601318.SH", date("2023-01-03"), date("2023-10-01")},
  };
  const auto spans = members::spans_of_announcements("000300.SH", rows, days, warnings);
  CHECK(spans
        == std::vector<MemberSpan>{imported_span("000001.SZ", "2023-01-03"),
                                   imported_span("600004.SH", "2023-06-12", "2024-06-14"),
                                   imported_span("600519.SH", "2023-01-03", "2023-06-29"),
                                   imported_span("601318.SH", "2023-01-03", "2023-09-28")});
  CHECK(warnings
        == std::vector<std::string>{"7: 600036.SH is a member on no open day: row skipped"});
}

TEST_CASE("D20: members::import_members replaces the index's imported spans") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  test::TempDir dir;
  const auto path = dir.path() / "csi300.csv";
  const auto write = [&](const std::string& text) { std::ofstream(path) << text; };
  write("symbol,name,opt-in,opt-out\nSH600000,浦发银行,2023-01-03,\nSH600004,x,,2023-06-12\n");
  const auto generation = store->load_generation();
  auto report = members::import_members(*store, "000300.SH", path);
  REQUIRE(report);
  CHECK(report->index_symbol == "000300.SH");
  CHECK(report->rows == 1);
  CHECK(report->spans == 1);
  CHECK(report->warnings.size() == 1);
  CHECK(store->load_generation() == generation + 1); // D17: ETags change
  CHECK(store->market().load_member_spans("000300.SH", MemberSource::import)
        == std::vector<MemberSpan>{imported_span("600000.SH", "2023-01-03")});

  write("symbol,name,opt-in,opt-out\nSH600519,x,2023-01-03,\n");
  REQUIRE(members::import_members(*store, "SH000300", path));
  CHECK(store->market().load_member_spans("000300.SH", MemberSource::import)
        == std::vector<MemberSpan>{imported_span("600519.SH", "2023-01-03")});

  SUBCASE("a code that is not an index's, or a file that is not one, stores nothing") {
    CHECK(members::import_members(*store, "600519.SH", path).error().code
          == ErrorCode::invalid_symbol);
    write("symbol,trade_date\n");
    CHECK(members::import_members(*store, "000300.SH", path).error().code
          == ErrorCode::invalid_input);
    CHECK(store->market().load_member_spans("000300.SH", MemberSource::import).size() == 1);
  }
}
