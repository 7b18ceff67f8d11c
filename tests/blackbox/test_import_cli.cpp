// `ashare import`: exit statuses, `file:line: column: what` messages, --skip-invalid, --source,
// idempotence, and a refused file leaving the store exactly as it was (checked over HTTP).
#include "fixtures.hpp"

#include <doctest/doctest.h>
#include <fstream>

using namespace bb;
using nlohmann::json;

namespace {

// The comma-separated fields of a CSV line without quoting.
std::vector<std::string> words_csv(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
    out.push_back(line.substr(start, comma - start));
  }
  out.push_back(line.substr(start));
  return out;
}

const std::string k_header =
    "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor";
const std::string k_good_row = "609009.SH,2024-01-02,10,12,9,11,100,1100,0,1";

std::filesystem::path
write_file(const TestStore& store, const std::string& name, const std::string& text) {
  const auto path = store.dir() / name;
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

// A bars body without its request id, for comparing two responses.
json json_without_request_id(const Reply& reply) {
  REQUIRE(reply.status == 200);
  auto body = reply.json();
  body.erase("request_id");
  return body;
}

} // namespace

TEST_CASE("import: a good file loads and reports rows, symbols and as_of") {
  TestStore store;
  const auto path = fixture("bancob_600519.SH.csv");
  const auto result = store.cli({"import", path.string()});
  CHECK(result.status == 0);
  CHECK(result.out == path.string() + ": canonical, loaded 500 rows for 1 symbol, factors from the file; as_of 2025-10-23\n");
  CHECK(result.err == "");

  SUBCASE("several files in one run, one line each") {
    const auto a = fixture("jenny_000001.SZ.csv");
    const auto b = fixture("jenny_600276.SH.csv");
    const auto both = store.cli({"import", a.string(), b.string()});
    CHECK(both.status == 0);
    CHECK(both.out
          == a.string() + ": canonical, loaded 1212 rows for 1 symbol, no factors (1.0); as_of 2025-10-23\n" + b.string()
                 + ": canonical, loaded 1212 rows for 1 symbol, no factors (1.0); as_of 2025-10-23\n");
  }
  SUBCASE("the parent directories of --db are created") {
    TestStore other;
    const auto nested = other.dir() / "a" / "b" / "store.db";
    const auto run = run_process({ashare_bin(), "import", path.string(), "--db", nested.string()});
    CHECK(run.status == 0);
    CHECK(std::filesystem::exists(nested));
  }
}

TEST_CASE("import: each bad row is reported as file:line: column: what, and nothing is loaded") {
  TestStore store;
  struct Case {
    std::string row;
    std::string message; // after "FILE:3: "
  };
  const std::vector<Case> cases{
      {"609009.SH,2024-01-03,11,10,9,11,100,1100,0,1",
       "high: high 10 is below max(open, close) 11"},
      {"609009.SH,2024-01-03,10,12,10.5,11,100,1100,0,1",
       "low: low 10.5 is above min(open, close) 10"},
      {"609009.SH,2024-01-03,10,12,9,11,1.5,1100,0,1",
       "volume: \"1.5\" is not a whole number of shares"},
      {"609009.SH,2024-01-03,10,12,9,11,100,1100,0", "row: has 9 fields, the header has 10"},
      {"609009.SH,2024-01-02,10,12,9,11,100,1100,0,1",
       "trade_date: duplicate row for 609009.SH on 2024-01-02 (first on line 2)"},
      {"60051.SH,2024-01-03,10,12,9,11,100,1100,0,1",
       "symbol: invalid symbol \"60051.SH\": expected six digits, a dot and SH, SZ or BJ"},
      {"609009.SH,2024-01-03,abc,12,9,11,100,1100,0,1", "open: \"abc\" is not a number"},
      {"609009.SH,2024-13-03,10,12,9,11,100,1100,0,1",
       "trade_date: \"2024-13-03\" is not a date YYYY-MM-DD"},
      {"609009.SH,2024-01-03,10,12,9,11,-5,1100,0,1",
       "volume: volume -5 must be from 0 to 1000000000000000"},
      {"609009.SH,2024-01-03,10,12,9,11,100,-1,0,1",
       "turnover: turnover -1 must be at least 0 and below 1000000000000000"},
      {"609009.SH,2024-01-03,10,12,9,11,100,1100,0,0",
       "factor: factor 0 must be from 0.000001 to 1000000000"},
      {"609009.SH,2024-01-03,10,12,9,11,100,1100,0,-2",
       "factor: factor -2 must be from 0.000001 to 1000000000"},
      {"609009.SH,2024-01-03,0,12,9,11,100,1100,0,1",
       "open: price 0 must be above 0 and below 1000000000"},
      {"609009.SH,2024-01-03,10,12,9,-1,100,1100,0,1",
       "close: price -1 must be above 0 and below 1000000000"},
      {"609009.SH,2024-01-03,10,12,9,11,100,1100,x,1", "change_pct: \"x\" is not a number"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    CAPTURE(c.row);
    const auto path = write_file(store, "bad" + std::to_string(i) + ".csv",
                                 k_header + "\n" + k_good_row + "\n" + c.row + "\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.out == "");
    CHECK(result.err
          == path.string() + ":3: " + c.message + "\nashare: error: " + path.string()
                 + ": nothing imported (use --skip-invalid to load the valid rows)\n");
  }
  // Not one of those files left a row behind: the symbol is unknown.
  store.import({fixture("bancob_600519.SH.csv")});
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  check_error(request(server.port(), bars_target("2024-01-01", "2024-01-31", "symbol=609009.SH"),
                      key.plaintext),
              400, "INVALID_SYMBOL");
}

TEST_CASE("import: file-level errors and usage") {
  TestStore store;
  SUBCASE("a missing column") {
    const auto path = write_file(store, "h.csv", "symbol,trade_date\n609009.SH,2024-01-02\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err
          == "ashare: error: " + path.string()
                 + ":1: header: missing column \"open\" (the canonical columns are symbol, "
                   "trade_date, open, high, low, close, volume, turnover and optionally "
                   "change_pct, factor)\n");
  }
  SUBCASE("a column named twice") {
    const auto path = write_file(store, "twice.csv", k_header + ",open\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err
          == "ashare: error: " + path.string() + ":1: header: column \"open\" is named twice\n");
  }
  SUBCASE("an empty file") {
    const auto path = write_file(store, "empty.csv", "");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err
          == "ashare: error: " + path.string()
                 + ":1: header: the file is empty: expected a header row naming the columns\n");
  }
  SUBCASE("a file that does not exist") {
    const auto path = store.dir() / "nope.csv";
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err == "ashare: error: " + path.string() + ": cannot open the file\n");
  }
  SUBCASE("no file at all is a usage error") {
    const auto result = store.cli({"import"});
    CHECK(result.status == 2);
    CHECK(result.err.find("FILE is required") != std::string::npos);
  }
  SUBCASE("a bad file among good ones: the good ones load, the exit status is 1") {
    const auto bad = write_file(store, "bad.csv", k_header + "\n" + k_good_row + "\n609009.SH,x\n");
    const auto good = fixture("bancob_600036.SH.csv");
    const auto result = store.cli({"import", bad.string(), good.string()});
    CHECK(result.status == 1);
    CHECK(result.out == good.string() + ": canonical, loaded 500 rows for 1 symbol, factors from the file; as_of 2025-10-23\n");
    CHECK(result.err
          == bad.string()
                 + ":3: row: has 2 fields, the header has 10\nashare: error: " + bad.string()
                 + ": nothing imported (use --skip-invalid to load the valid rows)\n");
  }
}

TEST_CASE("import --skip-invalid reports bad rows and loads the rest") {
  TestStore store;
  const auto path = write_file(store, "mixed.csv",
                               k_header + "\n" + k_good_row + "\n"
                                   + "609009.SH,2024-01-03,11,10,9,11,100,1100,0,1\n"
                                   + "609009.SH,2024-01-04,10,12,9,11,100,1100,0,1\n"
                                   + "609009.SH,2024-01-05,10,12,9,11,-5,1100,0,1\n"
                                   + "609009.SH,2024-01-08,10,12,9,11,100,1100,0,1\n");
  const auto result = store.cli({"import", "--skip-invalid", path.string()});
  CHECK(result.status == 0);
  CHECK(result.out
        == path.string()
               + ": canonical, loaded 3 rows for 1 symbol, skipped 2 invalid rows, factors from the file; "
                 "as_of 2024-01-08\n");
  CHECK(result.err
        == path.string() + ":3: high: high 10 is below max(open, close) 11\n" + path.string()
               + ":5: volume: volume -5 must be from 0 to 1000000000000000\n");
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  const auto reply = request(
      server.port(), bars_target("2024-01-01", "2024-01-31", "symbol=609009.SH"), key.plaintext);
  REQUIRE(reply.status == 200);
  CHECK(dates_of(reply.json()["ohlc"])
        == std::vector<std::string>{"2024-01-02", "2024-01-04", "2024-01-08"});
}

TEST_CASE("import: a refused file leaves the store's contents unchanged") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv"), fixture("jenny_000001.SZ.csv")});
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  const auto port = server.port();
  const auto snapshot = [&] {
    json out;
    out["bars"] = json_without_request_id(request(
        port, bars_target("2000-01-01", "2030-12-31", "symbol=600519.SH,000001.SZ&limit=5000"),
        key.plaintext));
    out["raw"] = json_without_request_id(request(
        port, bars_target("2000-01-01", "2030-12-31", "symbol=600519.SH&adjusted=false&limit=5000"),
        key.plaintext));
    out["health"] = request(port, "/healthz").json();
    out["new_symbol"] =
        request(port, bars_target("2000-01-01", "2030-12-31", "symbol=609009.SH"), key.plaintext)
            .status;
    return out;
  };
  const auto before = snapshot();
  REQUIRE(before["bars"]["results"][0]["resultsCount"] == 500);
  REQUIRE(before["health"]["as_of"] == "2025-10-23");
  REQUIRE(before["new_symbol"] == 400);

  SUBCASE("a bad row after rows that would change, add and extend data") {
    // Valid rows overwrite 600519.SH bars, add a new symbol and move as_of; the last row is bad.
    const auto path =
        write_file(store, "malformed.csv",
                   k_header + "\n" + "600519.SH,2024-01-02,1.5,2.5,1.0,2.0,1,2,0,7.8576\n"
                       + "600519.SH,2025-10-23,1.5,2.5,1.0,2.0,1,2,0,99\n"
                       + "600519.SH,2025-12-01,1.5,2.5,1.0,2.0,1,2,0,1\n"
                       + "609009.SH,2025-12-02,10,12,9,11,100,1100,0,1\n"
                       + "000001.SZ,2020-01-02,1.5,2.5,1.0,2.0,1,2,0,1\n"
                       + "600519.SH,2025-12-03,10,9,9,11,100,1100,0,1\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err.find(path.string() + ":7: high: ") != std::string::npos);
  }
  SUBCASE("a file without factors for a symbol whose stored factors are not 1") {
    const auto path = write_file(store, "nofactor.csv",
                                 "symbol,trade_date,open,high,low,close,volume,turnover\n"
                                 "609009.SH,2025-12-02,10,12,9,11,100,1100\n"
                                 "600519.SH,2025-12-01,10,12,9,11,100,1100\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.out == "");
    CHECK(result.err
          == path.string()
                 + ":3: factor: the file has no factors, but the store holds "
                   "factors other than 1 for 600519.SH: importing it would rescale that "
                   "history; add factors (a factor column, or --adj-factor FILE)\nashare: error: "
                 + path.string() + ": nothing imported\n");
  }
  SUBCASE("a file whose header is broken") {
    const auto path =
        write_file(store, "header.csv", "symbol,trade_date,open\n600519.SH,2025-12-01,1\n");
    CHECK(store.cli({"import", path.string()}).status == 1);
  }
  SUBCASE("D16: one row dated 9999-12-31 would have moved as_of past every real bar") {
    const auto path =
      write_file(store, "future.csv", k_header + "\n609009.SH,9999-12-31,10,12,9,11,100,1100,0,1\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err.rfind(path.string() + ":2: trade_date: 9999-12-31 is outside 1990-12-19 (the "
                             "first session) to ", 0)
          == 0);
    // With --skip-invalid the row is left out like any other bad row: nothing else to load.
    const auto skipped = store.cli({"import", "--skip-invalid", path.string()});
    CHECK(skipped.status == 0);
    CHECK(skipped.err.find("no row loaded: the store is unchanged") != std::string::npos);
  }
  SUBCASE("D16: a 400-digit turnover is refused, never read as 0") {
    const auto path = write_file(store, "digits.csv",
                                 k_header + "\n609009.SH,2024-01-02,10,12,9,11,100,"
                                   + std::string(400, '7') + ",0,1\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err
          == path.string()
               + ":2: turnover: \"77777777777777777777777777777777...\" (400 characters) has "
                 "more than 40 significant digits: too long to read exactly\nashare: error: "
               + path.string() + ": nothing imported (use --skip-invalid to load the valid rows)\n");
  }
  SUBCASE("D16: a line longer than 64 KiB refuses the file at that line") {
    const auto path =
      write_file(store, "long.csv",
                 k_header + "\n600519.SH,2024-01-02,1.5,2.5,1.0,2.0,1,2,0,7.8576\n609009.SH,"
                   + std::string(4 << 20, '9') + "\n600519.SH,2024-01-03,1.5,2.5,1.0,2.0,1,2,0,1\n");
    const auto result = store.cli({"import", "--skip-invalid", path.string()});
    CHECK(result.status == 1);
    CHECK(result.out == "");
    CHECK(result.err
          == "ashare: error: " + path.string()
               + ":3: row: the line is longer than 64 KiB (65536 bytes): no file of daily bars "
                 "has one\n");
  }
  const auto after = snapshot();
  CHECK(after == before);
}

TEST_CASE("import: re-importing is idempotent; --source is recorded in meta.source") {
  TestStore store;
  store.import({fixture("bancob_600036.SH.csv")});
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  const auto target = bars_target("2020-01-01", "2030-12-31", "symbol=600036.SH&limit=5000");
  const auto first = json_without_request_id(request(server.port(), target, key.plaintext));
  CHECK(first["meta"]["source"] == "canonical"); // the default
  CHECK(first["resultsCount"] == 500);

  const auto again =
      store.cli({"import", fixture("bancob_600036.SH.csv").string(), "--source", "tushare"});
  CHECK(again.status == 0);
  CHECK(again.out
        == fixture("bancob_600036.SH.csv").string()
               + ": canonical, loaded 500 rows for 1 symbol, factors from the file; as_of 2025-10-23\n");
  nlohmann::json second;
  // With the store on PostgreSQL the server hears of the import within 1 s (issue 14).
  CHECK(await_on_server(store, [&] {
    second = json_without_request_id(request(server.port(), target, key.plaintext));
    return second["meta"]["source"] == "tushare";
  }));
  CHECK(second["meta"]["source"] == "tushare");
  second["meta"]["source"] = "canonical";
  CHECK(second == first);
}

TEST_CASE("remove: a window or all bars of a symbol, with as_of and derived change_pct updated") {
  TestStore store;
  store.import({fixture("bancob_600519.SH.csv"), fixture("jenny_000001.SZ.csv")});
  const auto csv = [&](const std::vector<std::string>& args) {
    auto result = store.cli(args);
    REQUIRE(result.status == 0);
    return result.out;
  };

  // 000001.SZ has no change_pct column: ashare derives it from the previous stored close.
  // Removing 2024-06-03..2024-06-28 makes 2024-07-01's previous bar 2024-05-31.
  auto removed = store.cli({"remove", "000001.sz", "2024-06-03", "2024-06-28"});
  REQUIRE(removed.status == 0);
  CHECK(removed.out == "000001.SZ: removed 19 bars; as_of 2025-10-23\n"); // 19 sessions: 06-10 was a holiday
  const auto rows = csv({"bars", "000001.SZ", "2024-05-31", "2024-07-01", "--raw", "--format",
                         "csv", "--no-header"});
  const auto lines = split_lines(rows);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("000001.SZ,2024-05-31,", 0) == 0);
  CHECK(lines[1].rfind("000001.SZ,2024-07-01,", 0) == 0);
  const auto close_of = [](const std::string& line) { return std::stod(words_csv(line)[6]); };
  const auto change_of = [](const std::string& line) { return std::stod(words_csv(line)[9]); };
  CHECK(change_of(lines[1]) == doctest::Approx((close_of(lines[1]) / close_of(lines[0]) - 1) * 100));

  // Removing every bar of the symbol with the latest date moves as_of back.
  auto all = store.cli({"remove", "600519.SH"});
  REQUIRE(all.status == 0);
  CHECK(all.out == "600519.SH: removed 500 bars; as_of 2024-12-31\n");
  CHECK(csv({"symbols", "--format", "csv", "--no-header"})
        == "000001.SZ,2020-01-02,2024-12-31,1193,canonical,none,false,,stock,\n");

  // Usage errors: a malformed symbol, FROM without TO.
  CHECK(store.cli({"remove", "60051.SH"}).status == 2);
  CHECK(store.cli({"remove", "000001.SZ", "2024-01-01"}).status == 2);
}

TEST_CASE("import: a file that loads no row changes nothing, says so and exits 0 (D16)") {
  TestStore store;
  store.import({fixture("bancob_600036.SH.csv")}, {"--source", "tushare"});
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  const auto snapshot = [&] {
    json out;
    out["bars"] = json_without_request_id(request(
        server.port(), bars_target("2020-01-01", "2030-12-31", "symbol=600036.SH&limit=5000"),
        key.plaintext));
    // With no symbol served, meta.source is the source of the store's most recent import (D8).
    out["none_served"] = json_without_request_id(request(
        server.port(), bars_target("2020-01-01", "2030-12-31", "symbol=609009.SH,609008.SH"),
        key.plaintext));
    out["health"] = request(server.port(), "/healthz").json();
    return out;
  };
  const auto before = snapshot();
  REQUIRE(before["bars"]["meta"]["source"] == "tushare");
  REQUIRE(before["none_served"]["meta"]["source"] == "tushare");
  SUBCASE("a header alone: an empty daily file on a holiday") {
    const auto path = write_file(store, "holiday.csv", k_header + "\n");
    const auto result = store.cli({"import", path.string(), "--source", "akshare"});
    CHECK(result.status == 0);
    CHECK(result.out
          == path.string()
                 + ": canonical, loaded 0 rows for 0 symbols, factors from the file; as_of "
                   "2025-10-23\n");
    CHECK(result.err == path.string() + ": note: no row loaded: the store is unchanged\n");
  }
  SUBCASE("every row skipped by --skip-invalid") {
    const auto path =
        write_file(store, "bad.csv", k_header + "\n609009.SH,2024-01-02,10,9,9,11,100,1100,0,1\n");
    const auto result =
        store.cli({"import", path.string(), "--skip-invalid", "--source", "akshare"});
    CHECK(result.status == 0);
    CHECK(result.err.find(path.string() + ":2: high: ") != std::string::npos);
    CHECK(result.err.find(path.string() + ": note: no row loaded: the store is unchanged\n")
          != std::string::npos);
  }
  // The recorded source (meta.source, D8) and everything served are as they were.
  CHECK(snapshot() == before);
}

TEST_CASE("import: file content in messages has its control and non-UTF-8 bytes escaped (D16)") {
  TestStore store;
  SUBCASE("a header no format has, with escape sequences and a forged line") {
    const auto path = write_file(store, "evil.csv",
                                 "\x1b[2J\x1b[31mdate\nashare: forged,\xff\xfe,日期\n1,2\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err.find('\x1b') == std::string::npos);
    CHECK(result.err.find("\xff") == std::string::npos);
    CHECK(result.err.find("\\x1b[2J\\x1b[31mdate") != std::string::npos);
  }
  SUBCASE("a bad value in a row") {
    const auto path = write_file(store, "row.csv",
                                 k_header + "\n609009.SH,2024-01-02,1\x1b[31m0,12,9,11,100,1100,0,1\n");
    const auto result = store.cli({"import", path.string()});
    CHECK(result.status == 1);
    CHECK(result.err.find('\x1b') == std::string::npos);
    CHECK(result.err.find("1\\x1b[31m0") != std::string::npos);
  }
}

// Defence in depth (issue 13): no number that is not finite is ever written. D16's bounds keep
// such values out of an import; a store written before them (or edited by another tool) may
// still hold a price of 1e308, whose factor doubling on adjustment gives an infinite number.
TEST_CASE("a number that is not finite: a 500 with the envelope over HTTP, an error in the CLI") {
  TestStore store(TestStore::Backend::sqlite); // edited below with the sqlite3 shell
  const auto path = write_file(store, "bars.csv",
                               k_header + "\n609009.SH,2024-01-02,10,10,10,10,1,1,0,2\n"
                                   "609009.SH,2024-01-03,10,10,10,10,1,1,0,1\n"
                                   "609008.SH,2024-01-03,10,10,10,10,1,1,0,1\n");
  REQUIRE(store.cli({"import", path.string()}).status == 0);
  CHECK(store.cli({"import", write_file(store, "huge.csv",
                                        k_header + "\n609009.SH,2024-01-02,1e308,1e308,1e308,"
                                                   "1e308,1,1,0,2\n")
                                 .string()})
          .err.find("price 1e+308 must be above 0 and below 1000000000")
        != std::string::npos);
  Process edit({"/usr/bin/sqlite3", store.db().string(),
                "UPDATE bars SET open = 1e308, high = 1e308, low = 1e308, close = 1e308 "
                "WHERE trade_date = 20240102"},
               {});
  const auto edited = edit.wait_for_exit(30s);
  edit.wait_for_output_closed(10s);
  INFO(edit.stderr_text());
  REQUIRE(edited == 0);
  const auto key = store.create_key("pro");
  ServerProcess server(store);
  const auto target = bars_target("2024-01-01", "2024-01-05", "symbol=609009.SH");
  for (int i = 0; i < 3; ++i) { // the first read, then the cached history's
    const auto adjusted = request(server.port(), target, key.plaintext);
    CHECK(adjusted.status == 500);
    CHECK(adjusted.json()["error"]["code"] == "INTERNAL_ERROR");
    CHECK(adjusted.body.find("inf") == std::string::npos);
  }
  // The server keeps serving the rest.
  CHECK(request(server.port(), bars_target("2024-01-01", "2024-01-05", "symbol=609008.SH"),
                key.plaintext)
            .status
        == 200);
  CHECK(request(server.port(), "/healthz").status == 200);
  // A table, for reading, shows such a value as "-" (output/table's fixed_decimals).
  const auto table =
    store.cli({"bars", "609009.SH", "2024-01-01", "2024-01-05", "--format", "table"});
  CHECK(table.status == 0);
  CHECK(table.out.find("2024-01-02     -     -    -      -") != std::string::npos);
  for (const std::string format : {"csv", "json", "ndjson"}) {
    CAPTURE(format);
    const auto cli =
      store.cli({"bars", "609009.SH", "2024-01-01", "2024-01-05", "--format", format});
    CHECK(cli.status == 1);
    CHECK(cli.err.rfind("ashare: error: ", 0) == 0);
    CHECK(cli.out.find("inf") == std::string::npos);
  }
}
