// D20's index membership through the real binary: `import --format members` of the CSI 300
// announcements (tests/data/members, PROVENANCE in tests/data/README.md), `ashare members` in
// local and remote mode, and GET /v1/indices/{symbol}/members with its date, history, pages,
// 400, 401, 403, 404 and 304. On SQLite, and on PostgreSQL in the suite's PostgreSQL pass.
#include "fixtures.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace bb {
namespace {

const char* const k_csi300_file = "members/csi300_history_unliftedq.csv";

// One row of the announcement file, as written.
struct AnnouncedRow {
  std::string symbol; // qlib's spelling, SH600000
  std::string opt_in;
  std::string opt_out;
};

std::vector<AnnouncedRow> read_announcements() {
  std::istringstream in(read_text(fixture(k_csi300_file)));
  std::vector<AnnouncedRow> rows;
  std::string line;
  std::getline(in, line); // the header
  while (std::getline(in, line)) {
    const auto fields = csv_fields(line);
    REQUIRE(fields.size() == 4);
    rows.push_back({fields[0], fields[2], fields[3]});
  }
  return rows;
}

// SH600000 -> 600000.SH.
std::string d1_of(const std::string& qlib) { return qlib.substr(2) + "." + qlib.substr(0, 2); }

// The members the file gives on `day`, an open day: a row's span holds it when opt-in is on or
// before it and opt-out (the first day no longer a member) after it; rows without opt-in skipped.
std::set<std::string> file_members_on(const std::string& day) {
  std::set<std::string> out;
  for (const auto& row : read_announcements()) {
    if (!row.opt_in.empty() && row.opt_in <= day && (row.opt_out.empty() || row.opt_out > day)) {
      out.insert(d1_of(row.symbol));
    }
  }
  return out;
}

// The symbols (second column) of `members --format csv` output, checking its header.
std::set<std::string> csv_symbols(const std::string& out) {
  std::istringstream in(out);
  std::string line;
  std::getline(in, line);
  CHECK(line == "index,symbol,name,first_date,last_date,weight,source");
  std::set<std::string> symbols;
  while (std::getline(in, line)) {
    symbols.insert(csv_fields(line).at(1));
  }
  return symbols;
}

// A store with the CSI 300 spans imported, and 600519.SH's bars (as_of 2025-10-23).
struct MembersStore {
  MembersStore() {
    store.import({fixture("bancob_600519.SH.csv")});
    imported = store.cli({"import", "--format", "members", "--index", "000300.SH",
                          fixture(k_csi300_file).string()});
  }
  TestStore store;
  RunResult imported;
};

std::string members_path(const std::string& index, const std::string& query = "") {
  return "/v1/indices/" + index + "/members" + (query.empty() ? "" : "?" + query);
}

} // namespace

TEST_CASE("members: the CSI 300 announcements imported as D20 reads them") {
  MembersStore world;
  const auto& imported = world.imported;
  REQUIRE_MESSAGE(imported.status == 0, describe(imported));
  // The 4 rows without opt-in, each named by its line.
  for (const auto* line : {":696: 600312.SH", ":767: 600501.SH", ":787: 600549.SH",
                           ":901: 600786.SH"}) {
    CHECK_MESSAGE(imported.err.find(line) != std::string::npos, describe(imported));
  }
  CHECK(imported.out.find("members of 000300.SH") != std::string::npos);

  SUBCASE("on 2023-06-30: the file's 300") {
    const auto run = world.store.cli({"members", "000300.SH", "--on", "2023-06-30", "--format",
                                      "csv"});
    REQUIRE_MESSAGE(run.status == 0, describe(run));
    const auto symbols = csv_symbols(run.out);
    CHECK(symbols.size() == 300);
    CHECK(symbols == file_members_on("2023-06-30"));
  }
  SUBCASE("a closed day answers the last open day before it; the default is as_of") {
    const auto saturday = world.store.cli({"members", "000300.SH", "--on", "2023-07-01",
                                           "--format", "json"});
    REQUIRE_MESSAGE(saturday.status == 0, describe(saturday));
    const auto body = nlohmann::json::parse(saturday.out);
    CHECK(body["date"] == "2023-06-30");
    CHECK(body["resultsCount"] == 300);
    const auto current = nlohmann::json::parse(
      world.store.cli({"members", "000300.SH", "--format", "json"}).out);
    CHECK(current["date"] == k_fixture_as_of);
    CHECK(current["resultsCount"] == 300);
    CHECK(current["results"][0]["source"] == "import");
    CHECK(current["results"][0]["weight"].is_null());
  }
  SUBCASE("exactly 300 members on every open day from 2019-06-17, from every span") {
    const auto history = world.store.cli({"members", "000300.SH", "--history", "--format", "csv"});
    REQUIRE_MESSAGE(history.status == 0, describe(history));
    std::vector<std::pair<std::string, std::string>> spans; // first, last ("" open)
    std::istringstream in(history.out);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      const auto fields = csv_fields(line);
      spans.emplace_back(fields.at(3), fields.at(4));
    }
    CHECK(spans.size() > 900);
    const auto calendar = world.store.cli({"calendar", "--from", "2019-06-17", "--to",
                                           "2026-12-31", "--format", "csv"});
    REQUIRE_MESSAGE(calendar.status == 0, describe(calendar));
    std::istringstream days(calendar.out);
    std::getline(days, line); // the header
    int open_days = 0;
    while (std::getline(days, line)) {
      const auto day = csv_fields(line).at(0);
      const auto count = std::count_if(spans.begin(), spans.end(), [&](const auto& span) {
        return span.first <= day && (span.second.empty() || span.second >= day);
      });
      CHECK_MESSAGE(count == 300, day);
      ++open_days;
    }
    CHECK(open_days > 1800);
  }
  SUBCASE("a second import replaces the index's imported spans") {
    const auto file = world.store.dir() / "two.csv";
    write_text(file, "symbol,name,opt-in,opt-out\nSH600519,贵州茅台,2023-01-03,\n"
                     "SZ000001,,2023-01-03,2023-06-12\n");
    const auto again = world.store.cli({"import", "--format", "members", "--index", "000300.SH",
                                        file.string()});
    REQUIRE_MESSAGE(again.status == 0, describe(again));
    const auto run = world.store.cli({"members", "000300.SH", "--on", "2023-06-30", "--format",
                                      "csv"});
    CHECK(csv_symbols(run.out) == std::set<std::string>{"600519.SH"});
  }
  SUBCASE("usage: --format members and --index go together; an index without spans is 404") {
    const auto alone = world.store.cli({"import", "--format", "members",
                                        fixture(k_csi300_file).string()});
    CHECK(alone.status == 2);
    const auto unknown = world.store.cli({"members", "000905.SH"});
    CHECK(unknown.status != 0);
    CHECK_MESSAGE(unknown.err.find("NOT_FOUND") != std::string::npos, describe(unknown));
  }
}

TEST_CASE("members: GET /v1/indices/{symbol}/members") {
  MembersStore world;
  REQUIRE_MESSAGE(world.imported.status == 0, describe(world.imported));
  // 5,001 spans of another index: two pages of history.
  std::string many = "symbol,name,opt-in,opt-out\n";
  for (int i = 0; i < 5001; ++i) {
    many += "SH" + std::to_string(600000 + i) + ",,2024-01-02,\n";
  }
  const auto many_file = world.store.dir() / "many.csv";
  write_text(many_file, many);
  REQUIRE(world.store.cli({"import", "--format", "members", "--index", "000905.SH",
                           many_file.string()})
            .status
          == 0);
  const auto metered = world.store.create_key("pro", 100);
  const auto free = world.store.create_key("free");
  ServerProcess server(world.store);
  const auto get_members = [&](const std::string& target, const Key& key) {
    return request(server.port(), target, key.plaintext);
  };

  SUBCASE("a day: the members, 1 credit") {
    const auto reply = get_members(members_path("000300.SH", "date=2023-06-30"), metered);
    REQUIRE(reply.status == 200);
    const auto body = reply.json();
    CHECK(body["status"] == "OK");
    CHECK(body["request_id"] == reply.header("X-Request-Id"));
    CHECK(body["index"] == "000300.SH");
    CHECK(body["date"] == "2023-06-30");
    CHECK(body["resultsCount"] == 300);
    std::set<std::string> symbols;
    for (const auto& member : body["results"]) {
      symbols.insert(member["symbol"].get<std::string>());
      CHECK(member["first_date"] <= "2023-06-30");
    }
    CHECK(symbols == file_members_on("2023-06-30"));
    CHECK(!body.contains("next_url"));
    CHECK(remaining(reply) == "99");
    const auto current = get_members(members_path("000300.SH"), metered).json();
    CHECK(current["date"] == k_fixture_as_of);
  }
  SUBCASE("history: every span, 5,000 a page, by next_url") {
    const auto csi300 = get_members(members_path("000300.SH", "history=true"), metered).json();
    CHECK(csi300["date"].is_null());
    CHECK(csi300["resultsCount"] == csi300["results"].size());
    CHECK(!csi300.contains("next_url"));
    const auto first = get_members(members_path("000905.SH", "history=true"), metered);
    REQUIRE(first.status == 200);
    const auto page = first.json();
    CHECK(page["resultsCount"] == 5000);
    REQUIRE(page.contains("next_url"));
    const auto second = get_members(page["next_url"].get<std::string>(), metered).json();
    CHECK(second["resultsCount"] == 1);
    CHECK(!second.contains("next_url"));
    CHECK(second["results"][0]["symbol"] == "605000.SH");
  }
  SUBCASE("400, 401, 403, 404: D6's order, and the 404 free with X-Credits-Remaining") {
    check_error(get_members(members_path("000300"), metered), 400, "INVALID_SYMBOL");
    check_error(get_members(members_path("000300.SH", "date=2023-02-30"), metered), 400,
                "INVALID_PARAMETER");
    check_error(get_members(members_path("000300.SH", "date=2023-06-30&history=true"), metered),
                400, "INVALID_PARAMETER");
    check_error(request(server.port(), members_path("000300.SH")), 401, "UNAUTHORIZED");
    check_error(get_members(members_path("000300.SH", "date=2023-06-30"), free), 403,
                "PLAN_LIMIT");
    check_error(get_members(members_path("000300"), free), 400, "INVALID_SYMBOL");
    for (const auto* index : {"000852.SH", "600519.SH"}) {
      const auto reply = get_members(members_path(index), metered);
      check_error(reply, 404, "NOT_FOUND");
      CHECK(remaining(reply) == "100"); // free
    }
    check_error(get_members(members_path("000852.SH", "date=2020-01-02"), free), 403,
                "PLAN_LIMIT"); // 403 before 404
  }
  SUBCASE("D17: an ETag, a 304, and a new tag once the spans change") {
    const auto target = members_path("000300.SH", "date=2023-06-30");
    const auto first = get_members(target, metered);
    const auto etag = first.header("ETag");
    REQUIRE(!etag.empty());
    const auto again = request_with_headers(server.port(), target, metered.plaintext,
                                            {{"If-None-Match", etag}});
    CHECK(again.status == 304);
    REQUIRE(world.store.cli({"import", "--format", "members", "--index", "000300.SH",
                             fixture(k_csi300_file).string()})
              .status
            == 0);
    CHECK(await_on_server(world.store, [&] {
      return get_members(target, metered).header("ETag") != etag;
    }));
  }
}

TEST_CASE("members: remote mode asks the remote's route, --format json byte for byte") {
  MembersStore world;
  REQUIRE_MESSAGE(world.imported.status == 0, describe(world.imported));
  const auto key = world.store.create_key("pro");
  ServerProcess server(world.store);
  TempDir client;
  const auto remote = [&](const std::vector<std::string>& args) {
    const auto home = client.path().string();
    std::vector<std::string> argv{ashare_bin(),
                                  "--db",
                                  (client.path() / "client.db").string(),
                                  "--cache-db",
                                  (client.path() / "cache.db").string(),
                                  "--base-url",
                                  server.base_url(),
                                  "--api-key",
                                  key.plaintext};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, k_cli_timeout,
                       {"HOME=" + home, "XDG_DATA_HOME=" + home + "/xdg",
                        "XDG_CONFIG_HOME=" + home + "/cfg"});
  };
  const auto run = remote({"members", "000300.SH", "--on", "2023-06-30", "--format", "json"});
  REQUIRE_MESSAGE(run.status == 0, describe(run));
  const auto direct = request(server.port(), members_path("000300.SH", "date=2023-06-30"),
                              key.plaintext);
  REQUIRE(direct.status == 200);
  CHECK(without_request_id(run.out) == without_request_id(direct.body) + "\n");
  const auto csv = remote({"members", "000300.SH", "--on", "2023-06-30", "--format", "csv"});
  CHECK(csv_symbols(csv.out) == file_members_on("2023-06-30"));
  const auto missing = remote({"members", "000905.SH"});
  CHECK(missing.status != 0);
  CHECK(missing.err.find("NOT_FOUND") != std::string::npos);
}

TEST_CASE("members: the qlib export's instruments/csi300.txt read as qlib's file storage does") {
  MembersStore world;
  REQUIRE_MESSAGE(world.imported.status == 0, describe(world.imported));
  const auto dir = world.store.dir() / "qlib";
  const auto exported = world.store.cli({"export", "--format", "qlib", dir.string()});
  REQUIRE_MESSAGE(exported.status == 0, describe(exported));
  CHECK(exported.out.find("instruments/csi300.txt") != std::string::npos);
  // qlib's FileInstrumentStorage: tab-separated instrument, start, end; a symbol's spans kept as a
  // list; an instrument is in the market on a day inside any of its spans, both ends inclusive.
  const std::string script = R"(
import sys, pandas as pd
frame = pd.read_csv(sys.argv[1], sep="\t", header=None, names=["inst", "start", "end"],
                    dtype={"inst": str}, parse_dates=["start", "end"])
spans = {}
for row in frame.itertuples():
    spans.setdefault(row.inst, []).append((row.start, row.end))
day = pd.Timestamp(sys.argv[2])
print(max(len(v) for v in spans.values()), frame["end"].max().date())
for inst in sorted(i for i, v in spans.items() if any(s <= day <= e for s, e in v)):
    print(inst)
)";
  const auto run = run_process({"/usr/bin/python3", "-c", script,
                                (dir / "instruments" / "csi300.txt").string(), "2023-06-30"});
  REQUIRE_MESSAGE(run.status == 0, describe(run));
  std::istringstream lines(run.out);
  std::string first;
  std::getline(lines, first);
  // Several spans of one symbol kept; open spans end on the export's last day.
  const auto most_spans = std::stoi(first.substr(0, first.find(' ')));
  CHECK(most_spans >= 2);
  CHECK(first.substr(first.find(' ') + 1) == k_fixture_as_of);
  std::set<std::string> members;
  for (std::string line; std::getline(lines, line);) {
    members.insert(line.substr(2) + "." + line.substr(0, 2));
  }
  CHECK(members.size() == 300);
  CHECK(members == file_members_on("2023-06-30"));
}

} // namespace bb
