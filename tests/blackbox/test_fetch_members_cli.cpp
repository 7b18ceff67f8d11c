// `ashare fetch tushare` of D20's index membership against the stand-in Tushare server (issue 44):
// `index_weight`'s monthly snapshots (the stand-in's made from CSI 300's announcement spans, filed
// under 399300.SZ) stored as fetched, and the spans derived from them: the members on a
// snapshot's day are that snapshot's, between two snapshots the earlier one's, and a member
// dropped ends the open day before the snapshot that drops it. An index named once the bars are
// up to date is asked at once. --dry-run counts the calls; TDX has no membership.
#include "fixtures.hpp"
#include "process.hpp"
#include "tushare_standin.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

using namespace bb;

namespace {

constexpr const char* k_members_end_2022 = "2022-12-30T16:00:00+08:00";

RunResult fetch_members(const TestStore& store,
                        const TushareStandIn& standin,
                        const std::vector<std::string>& args,
                        const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv{"fetch", "tushare", "--pace", "0"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> environment{"ASHARE_TUSHARE_TOKEN=" + std::string(TushareStandIn::k_token),
                                       "ASHARE_TUSHARE_URL=" + standin.url(), "ASHARE_NOW=" + std::string(k_members_end_2022),
                                       "ASHARE_TUSHARE_WINDOW_MS=1000"};
  environment.insert(environment.end(), env.begin(), env.end());
  return store.cli(argv, k_cli_timeout, environment);
}

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (auto comma = line.find(','); ; comma = line.find(',', start)) {
    cells.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) {
      return cells;
    }
    start = comma + 1;
  }
}

// The rows of `members ... --format csv` (header skipped), each split into its cells.
std::vector<std::vector<std::string>> member_rows(const TestStore& store, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"members", "000300.SH", "--source", "tushare", "--format", "csv"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto run = store.cli(argv);
  REQUIRE_MESSAGE(run.status == 0, run.err);
  std::istringstream in(run.out);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    rows.push_back(split_cells(line));
  }
  return rows;
}

std::set<std::string> members_on(const TestStore& store, const std::string& day) {
  std::set<std::string> symbols;
  for (const auto& row : member_rows(store, {"--on", day})) {
    symbols.insert(row.at(1));
  }
  return symbols;
}

// CSI 300's members on `day` (YYYY-MM-DD) by the announcements the stand-in's snapshots are made
// from (tests/data/members/csi300_history_unliftedq.csv, read as D20 says: opt-in the first day a
// member, opt-out the first day no longer one).
std::set<std::string> announced_on(const std::string& day) {
  std::ifstream in(data_dir() / "members" / "csi300_history_unliftedq.csv");
  std::string line;
  std::getline(in, line);
  std::set<std::string> symbols;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    auto cells = split_cells(line);
    cells.resize(4);
    if (!cells[2].empty() && cells[2] <= day && (cells[3].empty() || day < cells[3])) {
      symbols.insert(cells[0].substr(2) + "." + cells[0].substr(0, 2));
    }
  }
  return symbols;
}

std::vector<nlohmann::json> weight_calls(const nlohmann::json& log) {
  std::vector<nlohmann::json> calls;
  for (const auto& entry : log) {
    if (entry["api_name"] == "index_weight") {
      calls.push_back(entry);
    }
  }
  return calls;
}

} // namespace

TEST_CASE("fetch tushare --members: index_weight's snapshots stored, and the members they give on a day") {
  TushareStandIn standin;
  TestStore store;
  const auto run = fetch_members(store, standin,
                                 {"--kind", "index", "--indices", "000300.SH", "--members", "000300.SH", "--from", "2021-01-04"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  // One window, asked as 399300.SZ (never 000300.SH, which Tushare answers with no rows) from a
  // month before the plan's first day: 25 snapshots of 300 rows, paged under the stand-in's 6,000.
  const auto calls = weight_calls(standin.log());
  REQUIRE(calls.size() == 2);
  for (const auto& call : calls) {
    CHECK(call["params"]["index_code"] == "399300.SZ");
    CHECK(call["params"]["start_date"] == "20201204");
    CHECK(call["params"]["end_date"] == "20221230");
  }
  CHECK(calls[0]["has_more"] == true);
  CHECK(calls[1]["has_more"] == false);

  // On a snapshot's day (each month's last open day in the stand-in), that snapshot's members.
  const auto may = announced_on("2022-05-31");
  const auto june = announced_on("2022-06-30");
  REQUIRE(may.size() == 300);
  REQUIRE(may != june); // CSI 300's June review took effect on 2022-06-13
  CHECK(members_on(store, "2022-05-31") == may);
  CHECK(members_on(store, "2022-06-30") == june);
  // Between two snapshots, the earlier one's: on 2022-06-15 the announcements already say June's.
  CHECK(members_on(store, "2022-06-15") == may);
  CHECK(announced_on("2022-06-15") == june);
  // The snapshot's weight is the one in force.
  CHECK(member_rows(store, {"--on", "2022-06-15"}).front().at(5) == "0.3333");

  // A member June's snapshot drops ends on the open day before it (2022-06-29).
  std::set<std::string> dropped;
  for (const auto& symbol : may) {
    if (june.count(symbol) == 0) {
      dropped.insert(symbol);
    }
  }
  REQUIRE(!dropped.empty());
  std::set<std::string> ended;
  for (const auto& row : member_rows(store, {"--history"})) {
    if (row.at(4) == "2022-06-29") {
      ended.insert(row.at(1));
    }
  }
  CHECK(ended == dropped);
}

TEST_CASE("fetch tushare --members: the next run asks from the day after the last snapshot") {
  TushareStandIn standin;
  TestStore store;
  const auto first = fetch_members(store, standin, {"--kind", "index", "--indices", "000300.SH", "--from", "2022-11-01"});
  REQUIRE_MESSAGE(first.status == 0, first.err);
  // D20's three by default: 000300.SH asked as 399300.SZ; the stand-in files no others.
  std::vector<std::string> asked;
  for (const auto& call : weight_calls(standin.log())) {
    asked.push_back(call["params"]["index_code"]);
  }
  CHECK(asked == std::vector<std::string>{"399300.SZ", "000905.SH", "000852.SH"});
  standin.control({{"reset", true}});
  std::vector<std::string> argv{"fetch", "tushare", "--pace", "0", "--kind", "index", "--indices", "000300.SH"};
  const auto next = store.cli(argv, k_cli_timeout,
                              {"ASHARE_TUSHARE_TOKEN=" + std::string(TushareStandIn::k_token), "ASHARE_TUSHARE_URL=" + standin.url(),
                               "ASHARE_NOW=2023-01-31T16:00:00+08:00", "ASHARE_MEMBERS=000300.SH"});
  REQUIRE_MESSAGE(next.status == 0, next.err);
  const auto calls = weight_calls(standin.log());
  REQUIRE(calls.size() == 1); // ASHARE_MEMBERS: the one index
  CHECK(calls[0]["params"]["start_date"] == "20221231");
  CHECK(calls[0]["params"]["end_date"] == "20230131");
  CHECK(members_on(store, "2023-01-31") == announced_on("2023-01-31"));
}

TEST_CASE("fetch tushare --members: an index named on an up-to-date store is asked at once, then not again") {
  TushareStandIn standin;
  TestStore store;
  const std::vector<std::string> bars{"--kind", "index", "--indices", "000300.SH"};
  auto args = bars;
  args.insert(args.end(), {"--members", "", "--from", "2022-11-01"});
  const auto first = fetch_members(store, standin, args);
  REQUIRE_MESSAGE(first.status == 0, first.err);
  REQUIRE(weight_calls(standin.log()).empty());

  // The bars up to date, 000300.SH's membership named: asked over the window a run with days
  // would use, a month before the first ledger day through the last completed day.
  standin.control({{"reset", true}});
  args = bars;
  args.insert(args.end(), {"--members", "000300.SH"});
  const auto named = fetch_members(store, standin, args);
  REQUIRE_MESSAGE(named.status == 0, named.err);
  CHECK(named.out.find("up to date, 3 membership snapshots, ") == 0);
  const auto calls = weight_calls(standin.log());
  REQUIRE(calls.size() == 1);
  CHECK(calls[0]["params"]["index_code"] == "399300.SZ");
  CHECK(calls[0]["params"]["start_date"] == "20221001");
  CHECK(calls[0]["params"]["end_date"] == "20221230");
  std::set<std::string> members; // `ashare members 000300.SH`: on as_of, the last completed day
  for (const auto& row : member_rows(store, {})) {
    members.insert(row.at(1));
  }
  CHECK(members.size() == 300);
  CHECK(members == announced_on("2022-12-30"));

  // Its snapshots stored, a run with no day asks nothing more.
  standin.control({{"reset", true}});
  const auto again = fetch_members(store, standin, args);
  REQUIRE_MESSAGE(again.status == 0, again.err);
  CHECK(again.out.find("up to date;") == 0);
  CHECK(weight_calls(standin.log()).empty());
}

TEST_CASE("fetch tushare --dry-run counts one index_weight call per index and window") {
  TushareStandIn standin;
  TestStore store;
  const auto estimate = [&](const std::string& members) {
    const auto run = fetch_members(store, standin, {"--dry-run", "--kind", "index", "--indices", "000300.SH",
                                                    "--from", "2022-12-01", "--members", members});
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const auto at = run.out.find("at least ");
    REQUIRE(at != std::string::npos);
    return std::stoll(run.out.substr(at + 9));
  };
  const auto none = estimate("");
  const auto three = estimate("000300.SH,000905.SH,000852.SH");
  CHECK(three == none + 3);
  const auto run = fetch_members(store, standin, {"--kind", "index", "--indices", "000300.SH", "--from", "2022-12-01"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(static_cast<std::int64_t>(standin.log().size()) == three);
  CHECK(weight_calls(standin.log()).size() == 3);
}

TEST_CASE("fetch tushare: a token refused index_weight warns once and stores the bars") {
  TushareStandIn standin({"--control", R"({"no_permission":"index_weight"})"});
  TestStore store;
  const auto run = fetch_members(store, standin, {"--kind", "index", "--indices", "000300.SH", "--from", "2022-12-01"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(run.err.find("may not call Tushare `index_weight`") != std::string::npos);
  CHECK(run.err.find("index_weight") == run.err.rfind("index_weight"));
  CHECK(run.err.find("doc_id=108; the indices' membership is left out of this run (D20)") != std::string::npos);
  CHECK(weight_calls(standin.log()).size() == 1);
  CHECK(run.out.find("fetched 22 days") != std::string::npos);
}

TEST_CASE("fetch tdx --members is a usage error: TDX has no index membership") {
  TestStore store;
  const auto run = store.cli({"fetch", "tdx", "--members", "000300.SH", "--dry-run"});
  CHECK(run.status == 2);
  CHECK(run.err.find("--members: TDX has no index membership") != std::string::npos);
  const auto named = store.cli({"fetch", "tushare", "600519.SH", "--members", "000300.SH", "--dry-run"});
  CHECK(named.status == 2);
  CHECK(named.err.find("--members chooses the market's symbols") != std::string::npos);
}
