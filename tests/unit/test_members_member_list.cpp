// D20: the members on a day and every span (members/member_list.hpp), and what the store answers
// (members/load_members.hpp): the source that answers, weights from the snapshot in force, names
// from the listings, a closed day answered by the open day before it.
#include "store_backend.hpp"
#include "testutil.hpp"

#include "core/members/load_members.hpp"
#include "core/members/member_list.hpp"
#include "core/members/snapshot_spans.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

using namespace ashare;
using store::MemberSource;
using store::MemberSpan;
using test::date;

namespace {

std::vector<std::string> member_symbols_of(const std::vector<members::Member>& list) {
  std::vector<std::string> out;
  for (const auto& member : list) {
    out.push_back(member.symbol);
  }
  return out;
}

} // namespace

TEST_CASE("D20: members::members_on: the spans in force on a day, both ends inclusive") {
  const std::vector<MemberSpan> spans{
      {"000300.SH", "000001.SZ", date("2023-01-03"), date("2023-06-29"), MemberSource::tushare},
      {"000300.SH", "600004.SH", date("2023-06-30"), std::nullopt, MemberSource::tushare},
      {"000300.SH", "600519.SH", date("2023-01-03"), std::nullopt, MemberSource::tushare},
  };
  const std::vector<store::MemberWeight> snapshot{{"600519.SH", 5.5}, {"000001.SZ", 0.4}};
  const std::map<std::string, std::string> names{{"600519.SH", "贵州茅台"}};
  const auto on = [&](const char* day) {
    return member_symbols_of(members::members_on(spans, date(day), snapshot, names));
  };
  CHECK(on("2023-06-29") == std::vector<std::string>{"000001.SZ", "600519.SH"});
  CHECK(on("2023-06-30") == std::vector<std::string>{"600004.SH", "600519.SH"});
  CHECK(on("2023-01-02").empty());
  const auto members = members::members_on(spans, date("2023-06-30"), snapshot, names);
  CHECK(members[0].weight == std::nullopt); // not in the snapshot
  CHECK(members[0].name.empty());           // no listing
  CHECK(members[1]
        == members::Member{"600519.SH", "贵州茅台", date("2023-01-03"), std::nullopt, 5.5,
                           MemberSource::tushare});
  SUBCASE("imported spans have no weight") {
    auto imported = spans;
    imported[2].source = MemberSource::import;
    CHECK(!members::members_on(imported, date("2023-06-30"), snapshot, names)[1].weight);
  }
  CHECK(members::every_member(spans, names).size() == 3);
}

TEST_CASE("D20: members::answering_source: imported spans first, unless asked") {
  CHECK(members::answering_source(true, std::nullopt) == MemberSource::import);
  CHECK(members::answering_source(false, std::nullopt) == MemberSource::tushare);
  CHECK(members::answering_source(true, MemberSource::tushare) == MemberSource::tushare);
  CHECK(members::parse_source("import") == MemberSource::import);
  CHECK(members::parse_source("tushare") == MemberSource::tushare);
  CHECK(!members::parse_source("Tushare"));
  CHECK(members::source_name(MemberSource::import) == "import");
}

TEST_CASE("D20: members::load_members_on and load_member_history over a store") {
  test::StoreBackend backend;
  const auto store = backend.open_bars();
  auto& market = store->market();
  {
    store::WriteTransaction transaction(*store);
    market.save_listing({"600519.SH", "贵州茅台", date("2001-08-27"), std::nullopt, 'L'});
    market.save_snapshot("000300.SH", date("2023-05-31"), {{"600519.SH", 5.1}, {"600004.SH", 0.2}});
    market.save_snapshot("000300.SH", date("2023-06-30"), {{"600519.SH", 5.3}});
    members::refresh_tushare_spans(market, "000300.SH");
    transaction.commit();
  }
  SUBCASE("the snapshots answer while there are no imported spans; weights of the day's") {
    auto read = members::load_members_on(market, "000300.SH", date("2023-06-29"), std::nullopt);
    CHECK(read.known);
    CHECK(read.source == MemberSource::tushare);
    CHECK(member_symbols_of(read.members) == std::vector<std::string>{"600004.SH", "600519.SH"});
    CHECK(read.members[1].weight == 5.1); // the snapshot of 2023-05-31
    CHECK(read.members[1].name == "贵州茅台");
    read = members::load_members_on(market, "000300.SH", date("2023-07-03"), std::nullopt);
    CHECK(member_symbols_of(read.members) == std::vector<std::string>{"600519.SH"});
    CHECK(read.members[0].weight == 5.3);
    CHECK(members::load_members_on(market, "000300.SH", date("2023-05-30"), std::nullopt)
              .members.empty());
  }
  SUBCASE("imported spans answer once there are any; --source picks the other") {
    store::WriteTransaction transaction(*store);
    market.save_member_spans(
        "000300.SH", MemberSource::import,
        {{"000300.SH", "000001.SZ", date("2005-04-08"), std::nullopt, MemberSource::import}});
    transaction.commit();
    auto read = members::load_members_on(market, "000300.SH", date("2023-06-29"), std::nullopt);
    CHECK(read.source == MemberSource::import);
    CHECK(member_symbols_of(read.members) == std::vector<std::string>{"000001.SZ"});
    CHECK(!read.members[0].weight);
    read = members::load_members_on(market, "000300.SH", date("2023-06-29"), MemberSource::tushare);
    CHECK(read.members.size() == 2);
    CHECK(members::load_member_history(market, "000300.SH", std::nullopt).members.size() == 1);
    CHECK(members::load_member_history(market, "000300.SH", MemberSource::tushare).members.size()
          == 2);
  }
  SUBCASE("an index without spans is not known") {
    CHECK(!members::load_members_on(market, "000905.SH", date("2023-06-29"), std::nullopt).known);
    CHECK(!members::load_member_history(market, "600519.SH", std::nullopt).known);
  }
  SUBCASE("a closed day answers the last open day before it") {
    CHECK(members::answered_day(market, date("2023-07-01")) == date("2023-06-30")); // Saturday
    CHECK(members::answered_day(market, date("2023-10-04")) == date("2023-09-28")); // National Day
    CHECK(members::answered_day(market, date("2023-06-30")) == date("2023-06-30"));
    CHECK(members::answered_day(market, date("2030-01-05")) == date("2030-01-05")); // no calendar
  }
}
