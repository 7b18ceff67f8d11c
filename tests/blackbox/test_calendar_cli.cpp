// `ashare calendar` (D19) and the calendar's way in and out: the shipped calendar of a new store,
// its formats and range, a range past the calendar's end (exit 1), remote mode (exit 2), a
// Tushare trade_cal CSV imported then printed, and `copy` carrying it.
#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace bb;

namespace {

// Run `ashare --db DB ARGS...` of `store` with ASHARE_NOW set to `now`.
RunResult cli_at(const TestStore& store, const std::string& now, std::vector<std::string> args) {
  std::vector<std::string> argv{ashare_bin()};
  const auto db = store.store_args();
  argv.insert(argv.end(), db.begin(), db.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, 60s, {"ASHARE_NOW=" + now});
}

} // namespace

TEST_CASE("calendar: the shipped calendar as table, CSV and JSON") {
  TestStore store;
  SUBCASE("CSV over a range, closed days with --all") {
    const auto run = store.cli({"calendar", "--from", "2024-02-08", "--to", "2024-02-19",
                                "--format", "csv"});
    INFO(describe(run));
    REQUIRE(run.status == 0);
    CHECK(run.out == "date,open\n2024-02-08,true\n2024-02-19,true\n"); // Spring Festival
    CHECK(run.err == "ashare: note: the calendar covers 1990-12-19 .. 2026-12-31\n");
    const auto all = store.cli({"calendar", "--from", "2024-02-08", "--to", "2024-02-10",
                                "--all", "--format", "csv", "--no-header"});
    CHECK(all.out == "2024-02-08,true\n2024-02-09,false\n2024-02-10,false\n");
  }
  SUBCASE("a table of the 30 days up to now at UTC+8") {
    // 2024-02-19 00:30 at UTC+8 is still 2024-02-18 at UTC.
    const auto run = cli_at(store, "2024-02-18T16:30:00Z", {"calendar", "--format", "table"});
    INFO(describe(run));
    REQUIRE(run.status == 0);
    CHECK(run.out.find("DATE") == 0);
    CHECK(run.out.find("2024-01-22  yes") != std::string::npos); // 2024-01-21 is a Sunday
    CHECK(run.out.find("2024-02-19  yes") != std::string::npos);
    CHECK(run.out.find("2024-02-09") == std::string::npos);
  }
  SUBCASE("JSON: the days and the covered span") {
    const auto run = store.cli({"calendar", "--from", "2024-10-01", "--to", "2024-10-08",
                                "--format", "json"});
    REQUIRE(run.status == 0);
    const auto body = nlohmann::json::parse(run.out);
    CHECK(body["calendar"]["first"] == "1990-12-19");
    CHECK(body["calendar"]["last"] == "2026-12-31");
    CHECK(body["days"] == nlohmann::json::parse(R"([{"date":"2024-10-08","open":true}])"));
    CHECK(run.err.empty());
  }
}

TEST_CASE("calendar: past the calendar's end is unknown (exit 1); usage and remote mode exit 2") {
  TestStore store;
  const auto past = store.cli({"calendar", "--from", "2026-12-28", "--to", "2027-01-04"});
  CHECK(past.status == 1);
  CHECK(past.out.empty());
  CHECK(past.err.find("ashare: error: 2027-01-04 is outside the calendar (1990-12-19 .. "
                      "2026-12-31)")
        == 0);
  CHECK(store.cli({"calendar", "--from", "2024-02-10", "--to", "2024-02-01"}).status == 2);
  CHECK(store.cli({"calendar", "--from", "2024-02-30"}).status == 2);
  CHECK(cli_at(store, "yesterday", {"calendar"}).status == 2);
  const auto remote = store.cli({"--base-url", "http://127.0.0.1:9", "calendar"});
  CHECK(remote.status == 2);
  CHECK(remote.err.find("remote mode") != std::string::npos);
}

TEST_CASE("calendar: a Tushare trade_cal CSV imported, then printed") {
  TestStore store;
  SUBCASE("every day of 2019, with a pandas index column") {
    const auto run = store.cli({"import", fixture("trade_cal/mysundry_2019.csv").string()});
    INFO(describe(run));
    REQUIRE(run.status == 0);
    CHECK(run.out.find("trade_cal, calendar 2019-01-01 .. 2019-12-31: 365 days, 244 open")
          != std::string::npos);
    const auto days = store.cli({"calendar", "--from", "2019-02-01", "--to", "2019-02-12",
                                 "--format", "csv", "--no-header"});
    CHECK(days.out == "2019-02-01,true\n2019-02-11,true\n2019-02-12,true\n");
  }
  SUBCASE("open days only: the rest of the span is closed") {
    // The file lists open days only (2024-02-08, then 2024-02-19).
    REQUIRE(store.cli({"import", "--format", "trade_cal",
                       fixture("trade_cal/bancob_2023_2025.csv").string()})
              .status
            == 0);
    const auto days = store.cli({"calendar", "--from", "2024-02-08", "--to", "2024-02-19",
                                 "--all", "--format", "csv", "--no-header"});
    CHECK(days.out.find("2024-02-08,true\n2024-02-09,false\n") == 0);
    CHECK(days.out.find("2024-02-19,true\n") != std::string::npos);
  }
  SUBCASE("a bad file is refused in the importers' words, nothing written") {
    const auto bad = store.dir() / "bad_cal.csv";
    std::ofstream(bad) << "cal_date,is_open\n20240212,1\n20240213,yes\n";
    const auto run = store.cli({"import", bad.string()});
    CHECK(run.status == 1);
    CHECK(run.err == "ashare: error: " + bad.string() + ":3: is_open: \"yes\" is not 0 or 1\n");
    const auto day = store.cli({"calendar", "--from", "2024-02-12", "--to", "2024-02-12",
                                "--format", "csv", "--no-header"});
    CHECK(day.out.empty()); // still closed
  }
}

TEST_CASE("calendar: copy carries the calendar") {
  TestStore store;
  const auto cal = store.dir() / "cal.csv";
  std::ofstream(cal) << "cal_date,is_open\n20270104,1\n20270105,1\n20270106,0\n";
  REQUIRE(store.cli({"import", cal.string()}).status == 0);
  const auto copy = store.dir() / "copy.db";
  const auto copied = store.cli({"copy", "--to", copy.string()});
  INFO(describe(copied));
  REQUIRE(copied.status == 0);
  const auto run = run_process({ashare_bin(), "--db", copy.string(), "calendar", "--from",
                                "2027-01-04", "--to", "2027-01-06", "--format", "csv",
                                "--no-header"});
  CHECK(run.out == "2027-01-04,true\n2027-01-05,true\n");
  CHECK(run.err == "ashare: note: the calendar covers 1990-12-19 .. 2027-01-06\n");
}
