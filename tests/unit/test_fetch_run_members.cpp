// D20's index membership in a fetch run (fetch/run_members.cpp), against the fake provider: a run
// with days asks every index of --members, one without asks only an index with no snapshot
// stored yet, over the window a run with days would use, and --dry-run counts what it would ask.
#include "fake_provider.hpp"
#include "testutil.hpp"

#include "core/fetch/run_fetch.hpp"
#include "core/store/sqlite_bar_store.hpp"

#include <doctest/doctest.h>

using namespace ashare;
using namespace ashare::fetch;
using test::date;

namespace {

using MembersAsked = std::tuple<std::string, domain::Date, domain::Date>;

// A market of one stock on the open days of 2024-01-02..2024-01-12, and two indices whose
// membership the source files monthly.
struct MembersRig {
  test::TempDir dir;
  std::string path = (dir / "members.db").string();
  store::SqliteBarStore store{dir / "members.db"};
  test::FakeProvider provider{UnitShape::market_day};

  MembersRig() {
    double close = 10;
    for (const auto* day : {"2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05", "2024-01-08",
                            "2024-01-09", "2024-01-10", "2024-01-11", "2024-01-12"}) {
      provider.closes["600519.SH"][date(day)] = close++;
    }
    provider.membership = true;
    for (const auto* index : {"000300.SH", "000905.SH"}) {
      provider.snapshots[index][date("2023-12-29")] = {{"600519.SH", 1.5}};
      provider.snapshots[index][date("2024-01-10")] = {{"600519.SH", 1.25}};
    }
  }

  // Run a fetch taking the membership of `members`, from `from` when given (else the plan's own).
  FetchReport fetch(std::vector<std::string> members, bool dry_run = false, const char* from = nullptr) {
    FetchOptions options;
    if (from != nullptr) {
      options.from = date(from);
    }
    options.now = test::at("2024-01-12", 16);
    options.members = std::move(members);
    options.dry_run = dry_run;
    provider.members_asked.clear();
    return run_fetch(path, provider, options, {});
  }
};

} // namespace

TEST_CASE("run_fetch: an up-to-date run asks the membership of an index with no snapshot yet (D20)") {
  MembersRig rig;
  const auto first = rig.fetch({"000300.SH"}, false, "2024-01-02");
  REQUIRE(first.end == FetchEnd::done);
  const auto start = date("2024-01-02");
  CHECK(rig.provider.members_asked == std::vector<MembersAsked>{{"000300.SH", date("2023-12-02"), date("2024-01-12")}});
  CHECK(first.snapshots_stored == 2);

  // 000905.SH named later, the store up to date: asked over the window a run with days uses (a
  // month before the plan's first day, the first ledger day, through its last), 000300.SH not
  // again; --dry-run counts it (the fake's estimate: 1,000 an index asked).
  const auto dry = rig.fetch({"000300.SH", "000905.SH"}, true);
  CHECK(dry.end == FetchEnd::planned);
  CHECK(dry.plan->days.empty());
  CHECK(dry.estimated_requests == rig.fetch({"000300.SH"}, true).estimated_requests + 1000);
  CHECK(rig.provider.members_asked.empty());

  const auto added = rig.fetch({"000300.SH", "000905.SH"});
  CHECK(added.end == FetchEnd::up_to_date);
  CHECK(added.plan->start == start);
  CHECK(rig.provider.members_asked == std::vector<MembersAsked>{{"000905.SH", start.plus_days(-31), date("2024-01-12")}});
  CHECK(added.snapshots_stored == 2);
  CHECK(rig.store.market().load_snapshot_days("000905.SH")
        == std::vector<domain::Date>{date("2023-12-29"), date("2024-01-10")});
  const auto snapshot = rig.store.market().load_snapshot("000905.SH", date("2024-01-10"));
  REQUIRE(snapshot.size() == 1);
  CHECK(snapshot.front().weight == 1.25);

  // Both stored: nothing more until a run has days.
  const auto again = rig.fetch({"000300.SH", "000905.SH"});
  CHECK(again.end == FetchEnd::up_to_date);
  CHECK(again.snapshots_stored == 0);
  CHECK(rig.provider.members_asked.empty());
}

TEST_CASE("run_fetch: an index the source files nothing for is asked again by the next up-to-date run") {
  MembersRig rig;
  REQUIRE(rig.fetch({}, false, "2024-01-02").end == FetchEnd::done);
  for (int run = 0; run < 2; ++run) {
    const auto report = rig.fetch({"000852.SH"});
    CHECK(report.end == FetchEnd::up_to_date);
    CHECK(report.snapshots_stored == 0);
    CHECK(rig.provider.members_asked.size() == 1);
  }
}
