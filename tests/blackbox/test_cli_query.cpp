// `ashare bars|ema|rsi|sma|symbols|info` on the command line (issue 4): CSV golden files, one
// output in local and remote mode, `--format json` equal to the server's body, paging through
// next_url, the default window, exit statuses, the four output formats and the config file, end
// to end through the real binary.
#include "fixtures.hpp"
#include "support/build_paths.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>

using namespace bb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A HOME of its own for CLI runs, with XDG_CONFIG_HOME and XDG_DATA_HOME inside it. Every run
// starts from an empty environment (`env -i`): Process appends its variables after the inherited
// ones and getenv takes the first, so an inherited HOME, XDG_CONFIG_HOME or NO_COLOR would win and
// the user's own config file could reach the binary.
class Sandbox {
public:
  fs::path home() const { return m_dir.path(); }
  fs::path xdg_config_file() const { return home() / "config" / "ashare" / "config.toml"; }

  RunResult run(const std::vector<std::string>& args,
                const std::vector<std::string>& env = {}) const {
    return run_clean(home(), args, env);
  }

private:
  TempDir m_dir;
};

// 609001.SH: a bar on every calendar day from 2023-10-23 to 2025-10-23 (732 bars, more than a
// Free key's limit of 500, all inside its two years of history), factor 1.
constexpr int k_synthetic_bars = 732;

void write_synthetic(const fs::path& path) {
  std::ofstream out(path);
  out << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n";
  int i = 0;
  for (std::string day = "2023-10-23"; day <= k_fixture_as_of; day = plus_days(day, 1), ++i) {
    out << "609001.SH," << day << ",10,12,9,11." << (i % 10) << ",";
    out << 100 + i << "," << 1100 + i << ",0,1\n";
  }
}

// One store for every test of this file (600519.SH, 600036.SH, 000001.SZ and 609001.SH, source
// "cli-fixtures"), its keys, and `ashare serve` over it. Tests only read it.
struct QueryWorld {
  TestStore store;
  Key pro;         // unmetered
  Key pro_metered; // charged credits: its bodies carry meta.credits_charged
  Key free;        // unmetered; one symbol, 500 bars per request
  Key broke;       // basic with 0 credits
  std::optional<ServerProcess> server;

  std::string base_url() const { return server->base_url(); }
};

QueryWorld& query_world() {
  static QueryWorld* instance = [] {
    static QueryWorld w;
    const auto synthetic = w.store.dir() / "synthetic_609001.SH.csv";
    write_synthetic(synthetic);
    w.store.import({fixture("bancob_600519.SH.csv"), fixture("bancob_600036.SH.csv"),
                    fixture("jenny_000001.SZ.csv"), synthetic},
                   {"--source", "cli-fixtures"});
    w.pro = w.store.create_key("pro");
    w.pro_metered = w.store.create_key("pro", 1'000'000);
    w.free = w.store.create_key("free");
    w.broke = w.store.create_key("basic", 0);
    w.server.emplace(w.store);
    return &w;
  }();
  return *instance;
}

// `ashare --db STORE ARGS...` in a fresh sandbox.
RunResult local(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
  return Sandbox{}.run(concat({"--db", query_world().store.data_locator()}, args), env);
}

// `ashare --base-url URL --api-key KEY ARGS...` in a fresh sandbox (so a client-side cache never
// carries over from one run to the next).
RunResult remote(const std::vector<std::string>& args,
                 const std::string& key,
                 const std::vector<std::string>& env = {}) {
  return Sandbox{}.run(concat({"--base-url", query_world().base_url(), "--api-key", key}, args), env);
}

// A bars or indicators body without what legitimately differs between two answers to the same
// request: the request id, and the credits a metered key was charged.
json normalized(const std::string& text) {
  auto body = json::parse(text);
  body.erase("request_id");
  if (body.contains("meta") && body["meta"].is_object()) {
    body["meta"].erase("credits_charged");
  }
  return body;
}

// A loopback port with nothing listening on it (bound, then closed).
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  ::close(fd);
  return ntohs(address.sin_port);
}

void write_file(const fs::path& path, const std::string& text, mode_t mode = 0600) {
  fs::create_directories(path.parent_path());
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  REQUIRE(::chmod(path.c_str(), mode) == 0);
}

// The committed expected outputs, in golden/ next to this file (found from the source tree, not
// __FILE__: under ccache's base_dir that is relative to the build directory, issue 43).
fs::path golden(const std::string& name) {
  return fs::path(ashare::test::source_dir()) / "tests" / "blackbox" / "golden" / name;
}

// D12: the shortest decimal that reads back as `x`, never with an exponent.
std::string d12(double x) {
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, x, std::chars_format::fixed);
  REQUIRE(error == std::errc{});
  return std::string(text, end);
}

// The csv rows `ashare bars SYMBOL FROM TO` must print, computed from the fixture: D8 adjustment
// round4(raw * factor / factor of the latest stored bar).
std::string expected_bars_rows(const std::string& file,
                               const std::string& from,
                               const std::string& to,
                               bool adjusted) {
  const auto rows = read_csv(fixture(file));
  const double latest = *rows.back().factor;
  std::string out;
  for (const auto& bar : in_range(rows, from, to)) {
    const auto price = [&](double raw) {
      return adjusted ? adjust(raw, *bar.factor, latest) : raw;
    };
    out += bar.symbol + "," + bar.date + "," + std::to_string(t_ms(bar.date)) + ","
           + d12(price(bar.open)) + "," + d12(price(bar.high)) + "," + d12(price(bar.low)) + ","
           + d12(price(bar.close)) + "," + std::to_string(bar.volume) + "," + d12(bar.turnover)
           + "," + d12(*bar.change_pct) + "," + d12(*bar.factor) + "\n";
  }
  return out;
}

// D9 SMA over the symbol's whole history of unrounded adjusted closes (TA-Lib's running sum:
// add the new point, emit, drop the trailing one), as csv rows for the days in [from, to].
std::string expected_sma_rows(const std::string& file,
                              int window,
                              const std::string& from,
                              const std::string& to,
                              const std::string& suffix) {
  const auto rows = read_csv(fixture(file));
  const double latest = *rows.back().factor;
  const auto n = static_cast<std::size_t>(window);
  double total = 0;
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    total += rows[i].close * *rows[i].factor / latest;
    if (i + 1 < n) {
      continue;
    }
    const double value = total / static_cast<double>(window);
    const std::size_t first = i + 1 - n;
    total -= rows[first].close * *rows[first].factor / latest;
    if (rows[i].date >= from && rows[i].date <= to) {
      out += rows[i].symbol + "," + rows[i].date + "," + std::to_string(t_ms(rows[i].date)) + ","
             + d12(value) + suffix + "\n";
    }
  }
  return out;
}

const std::string k_bars_header =
    "symbol,trade_date,t,open,high,low,close,volume,turnover,change_pct,factor\n";

} // namespace

// The golden files under golden/ were computed from tests/data/bancob_*.csv, not from ashare's
// output: bars by D8 (round4(raw * factor / 8.305) for 600519.SH, whose latest stored factor is
// 8.305; 600036.SH likewise with 5.714), SMA by D9 over the unrounded adjusted closes, numbers as
// D12, the table by its documented layout. This first test recomputes them from the fixtures.
TEST_CASE("cli query: the golden files agree with the fixtures") {
  CHECK(read_text(golden("bars_600519.SH_2024-06-14_2024-06-21.csv"))
        == k_bars_header
               + expected_bars_rows("bancob_600519.SH.csv", "2024-06-14", "2024-06-21", true));
  CHECK(read_text(golden("bars_600519.SH_2024-06-14_2024-06-21_raw.csv"))
        == k_bars_header
               + expected_bars_rows("bancob_600519.SH.csv", "2024-06-14", "2024-06-21", false));
  CHECK(read_text(golden("bars_600519.SH_600036.SH_2024-06-18_2024-06-20_no-header.csv"))
        == expected_bars_rows("bancob_600519.SH.csv", "2024-06-18", "2024-06-20", true)
               + expected_bars_rows("bancob_600036.SH.csv", "2024-06-18", "2024-06-20", true));
  CHECK(read_text(golden("sma_600519.SH_w5_2024-06-17_2024-06-21_asc.csv"))
        == "symbol,trade_date,t,value\n" // the bars' vocabulary (issue 12)
               + expected_sma_rows("bancob_600519.SH.csv", 5, "2024-06-17", "2024-06-21", ""));
  CHECK(read_text(golden("sma_600519.SH_w5_2024-06-17_2024-06-21_asc_underlying_no-header.csv"))
        == expected_sma_rows("bancob_600519.SH.csv", 5, "2024-06-17", "2024-06-21", ",close,true"));
  // The table (issue 12): a title, the headers, their units, then the csv's numbers, each column
  // padded with zeros to its longest decimals (no digit dropped), a '+' on rises, thousands
  // separators in volume and turnover.
  const auto table =
      split_lines(read_text(golden("bars_600519.SH_2024-06-14_2024-06-21_table.txt")));
  const auto csv = read_csv(golden("bars_600519.SH_2024-06-14_2024-06-21.csv"));
  REQUIRE(table.size() == 3 + csv.size());
  CHECK(table[0] == "600519.SH  2024-06-14 .. 2024-06-21  forward-adjusted");
  CHECK(words(table[1])
        == std::vector<std::string>{"DATE", "OPEN", "HIGH", "LOW", "CLOSE", "CHANGE%", "VOLUME",
                                    "TURNOVER", "FACTOR"});
  CHECK(words(table[2]) == std::vector<std::string>{"CNY", "CNY", "CNY", "CNY", "shares", "CNY"});
  const auto value = [](std::string text) {
    std::erase(text, ',');
    return std::stod(text);
  };
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const auto& bar = csv[i];
    const auto cells = words(table[3 + i]);
    CAPTURE(table[3 + i]);
    REQUIRE(cells.size() == 9);
    CHECK(cells[0] == bar.date);
    CHECK(value(cells[1]) == bar.open);
    CHECK(value(cells[2]) == bar.high);
    CHECK(value(cells[3]) == bar.low);
    CHECK(value(cells[4]) == bar.close);
    CHECK(value(cells[5]) == bar.change_pct.value());
    CHECK((cells[5][0] == '+') == (*bar.change_pct > 0));
    CHECK(value(cells[6]) == static_cast<double>(bar.volume));
    CHECK(value(cells[7]) == bar.turnover);
    CHECK(value(cells[8]) == bar.factor.value());
    for (const std::size_t column : std::initializer_list<std::size_t>{1, 2, 3, 4, 5, 8}) {
      CHECK(cells[column].size() - cells[column].find('.') == 5); // 4 decimals, padded
    }
  }
  CHECK(words(table[6])[4] == "1449.5630"); // 1449.563 in csv
}

TEST_CASE("cli query: csv and table output match the golden files, locally and remotely") {
  struct Row {
    std::vector<std::string> args;
    const char* golden;
  };
  const Row rows[] = {
      {{"bars", "600519.SH", "2024-06-14", "2024-06-21", "--format", "csv"},
       "bars_600519.SH_2024-06-14_2024-06-21.csv"},
      // Not a terminal: csv is the default format.
      {{"bars", "600519.SH", "2024-06-14", "2024-06-21"},
       "bars_600519.SH_2024-06-14_2024-06-21.csv"},
      {{"bars", "600519.SH", "--from", "2024-06-14", "--to", "2024-06-21", "--format", "csv"},
       "bars_600519.SH_2024-06-14_2024-06-21.csv"},
      {{"bars", "600519.SH", "2024-06-14", "2024-06-21", "--raw", "--format", "csv"},
       "bars_600519.SH_2024-06-14_2024-06-21_raw.csv"},
      {{"bars", "600519.SH,600036.SH", "2024-06-18", "2024-06-20", "--format", "csv",
        "--no-header"},
       "bars_600519.SH_600036.SH_2024-06-18_2024-06-20_no-header.csv"},
      {{"sma", "600519.SH", "--window", "5", "--from", "2024-06-17", "--to", "2024-06-21",
        "--order", "asc", "--format", "csv"},
       "sma_600519.SH_w5_2024-06-17_2024-06-21_asc.csv"},
      {{"sma", "600519.SH", "--window", "5", "--from", "2024-06-17", "--to", "2024-06-21",
        "--order", "asc", "--format", "csv", "--underlying", "--no-header"},
       "sma_600519.SH_w5_2024-06-17_2024-06-21_asc_underlying_no-header.csv"},
      {{"bars", "600519.SH", "2024-06-14", "2024-06-21", "--format", "table"},
       "bars_600519.SH_2024-06-14_2024-06-21_table.txt"},
  };
  for (const auto& row : rows) {
    CAPTURE(row.golden);
    const std::string expected = read_text(golden(row.golden));
    const auto local_run = local(row.args);
    INFO("local: " << describe(local_run));
    CHECK(local_run.status == 0);
    CHECK(local_run.out == expected);
    CHECK(local_run.err == "");
    const auto remote_run = remote(row.args, query_world().pro.plaintext);
    INFO("remote: " << describe(remote_run));
    CHECK(remote_run.status == 0);
    CHECK(remote_run.out == expected);
    CHECK(remote_run.err == "");
  }
}

namespace {

// One query, as the CLI takes it and as an HTTP request (in the CLI's parameter order, since a
// next_url repeats the request's query).
struct QueryCase {
  const char* what;
  std::vector<std::string> args;
  std::string target;
  int status; // the CLI's exit status
};

std::vector<QueryCase> query_cases() {
  const std::string range = "/v1/ohlc/range/1/day/2024-06-14/2024-06-21?";
  return {
      {"bars, one symbol",
       {"bars", "600519.SH", "2024-06-14", "2024-06-21"},
       range + "symbol=600519.SH&sort=asc",
       0},
      {"bars, raw, desc, limited (next_url)",
       {"bars", "600519.SH", "2024-06-14", "2024-06-21", "--raw", "--sort", "desc", "--limit", "3"},
       range + "symbol=600519.SH&adjusted=false&sort=desc&limit=3",
       0},
      {"bars, one symbol, summary",
       {"bars", "600036.SH", "2024-06-14", "2024-06-21", "--summary"},
       range + "symbol=600036.SH&sort=asc&include=summary",
       0},
      {"bars, two symbols, summary",
       {"bars", "600519.SH,600036.SH", "2024-06-14", "2024-06-21", "--summary"},
       range + "symbol=600519.SH%2C600036.SH&sort=asc&include=summary",
       0},
      {"bars, a known and an unknown symbol",
       {"bars", "600519.SH,600000.SH", "2024-06-14", "2024-06-21"},
       range + "symbol=600519.SH%2C600000.SH&sort=asc",
       1},
      {"ema, one symbol",
       {"ema", "600519.SH", "--window", "10", "--from", "2024-06-03", "--to", "2024-06-21"},
       // A window without --limit: every value, asked in pages of 500 (issue 12).
       "/v1/indicators/ema?symbol=600519.SH&window=10&limit=500&timestamp.gte=2024-06-03"
       "&timestamp.lte=2024-06-21",
       0},
      {"ema, two symbols, asc, underlying",
       {"ema", "600519.SH,600036.SH", "--limit", "4", "--order", "asc", "--underlying"},
       "/v1/indicators/ema?symbol=600519.SH,600036.SH&order=asc&limit=4&expand_underlying=true",
       0},
      {"rsi, one symbol",
       {"rsi", "600036.SH", "--window", "6", "--limit", "5"},
       "/v1/indicators/rsi?symbol=600036.SH&window=6&limit=5",
       0},
      {"rsi, two symbols",
       {"rsi", "600519.SH,600036.SH"},
       "/v1/indicators/rsi?symbol=600519.SH,600036.SH",
       0},
      {"sma, one symbol, at a date",
       {"sma", "600519.SH", "--window", "20", "--at", "2024-06-19"},
       "/v1/indicators/sma?symbol=600519.SH&window=20&timestamp=2024-06-19",
       0},
      {"sma, a known and an unknown symbol, raw high",
       {"sma", "600519.SH,600000.SH", "--window", "3", "--series", "high", "--raw", "--underlying",
        "--from", "2024-06-17", "--to", "2024-06-19"},
       "/v1/indicators/sma?symbol=600519.SH,600000.SH&window=3&series_type=high&adjusted=false"
       "&timestamp.gte=2024-06-17&timestamp.lte=2024-06-19&expand_underlying=true",
       1},
  };
}

} // namespace

TEST_CASE(
    "cli query: --format json prints the API body, the same locally, remotely and over HTTP") {
  for (const auto& query : query_cases()) {
    CAPTURE(query.what);
    const auto args = concat(query.args, {"--format", "json"});
    const auto local_run = local(args);
    INFO("local: " << describe(local_run));
    const auto remote_run = remote(args, query_world().pro.plaintext);
    INFO("remote: " << describe(remote_run));
    const auto http = request(query_world().server->port(), query.target, query_world().pro.plaintext);
    INFO("http: " << http.status << " " << http.body);
    REQUIRE(http.status == 200);
    CHECK(local_run.status == query.status);
    CHECK(remote_run.status == query.status);
    // The body on one line, then a newline; its own request id.
    REQUIRE(split_lines(local_run.out).size() == 1);
    REQUIRE(split_lines(remote_run.out).size() == 1);
    CHECK(is_request_id(json::parse(local_run.out).value("request_id", "")));
    CHECK(normalized(local_run.out) == normalized(http.body));
    CHECK(normalized(remote_run.out) == normalized(http.body));
    CHECK(local_run.err == remote_run.err);
  }

  SUBCASE("a metered key: equal but for meta.credits_charged") {
    const std::vector<std::string> args{
        "bars", "600519.SH,600036.SH", "2024-06-14", "2024-06-21", "--format", "json"};
    const auto local_run = local(args);
    const auto remote_run = remote(args, query_world().pro_metered.plaintext);
    const auto http =
        request(query_world().server->port(),
                "/v1/ohlc/range/1/day/2024-06-14/2024-06-21?symbol=600519.SH%2C600036.SH",
                query_world().pro_metered.plaintext);
    REQUIRE(local_run.status == 0);
    REQUIRE(remote_run.status == 0);
    REQUIRE(http.status == 200);
    CHECK(http.json()["meta"]["credits_charged"] == 2);
    CHECK_FALSE(json::parse(local_run.out)["meta"].contains("credits_charged"));
    CHECK(normalized(local_run.out) == normalized(http.body));
    CHECK(normalized(remote_run.out) == normalized(http.body));
  }

  SUBCASE("a base URL with a trailing slash") {
    const std::vector<std::string> args{"bars",       "600519.SH", "2024-06-14",
                                        "2024-06-21", "--format",  "json"};
    const auto run = Sandbox{}.run(
        concat({"--base-url", query_world().base_url() + "/", "--api-key", query_world().pro.plaintext}, args));
    INFO(describe(run));
    REQUIRE(run.status == 0);
    CHECK(normalized(run.out) == normalized(local(args).out));
  }
}

TEST_CASE("cli query: csv, table and ndjson print the same locally and remotely") {
  for (const auto& query : query_cases()) {
    for (const std::string format : {"csv", "table", "ndjson"}) {
      CAPTURE(query.what);
      CAPTURE(format);
      const auto args = concat(query.args, {"--format", format});
      const auto local_run = local(args);
      const auto remote_run = remote(args, query_world().pro.plaintext);
      INFO("local: " << describe(local_run));
      INFO("remote: " << describe(remote_run));
      CHECK(local_run.status == remote_run.status);
      CHECK((!local_run.out.empty() || local_run.status == 2)); // 2: --summary with csv
      CHECK(local_run.out == remote_run.out);
      CHECK(local_run.err == remote_run.err);
    }
  }
}

TEST_CASE("cli query: every bar of a long window is printed, following next_url") {
  // A Free key gets at most 500 bars per request: the window needs two pages.
  const std::string window_target =
      bars_target("2023-10-23", "2025-10-23", "symbol=609001.SH&sort=asc");
  const auto first_page = request(query_world().server->port(), window_target, query_world().free.plaintext);
  REQUIRE(first_page.status == 200);
  REQUIRE(first_page.json()["resultsCount"] == 500);
  REQUIRE(first_page.json().contains("next_url"));

  const std::vector<std::string> bars{"bars", "609001.SH", "2023-10-23", "2025-10-23"};
  SUBCASE("csv") {
    const auto local_run = local(concat(bars, {"--format", "csv"}));
    const auto remote_run = remote(concat(bars, {"--format", "csv"}), query_world().free.plaintext);
    INFO("remote: " << describe(remote_run));
    REQUIRE(local_run.status == 0);
    REQUIRE(remote_run.status == 0);
    const auto lines = split_lines(local_run.out);
    REQUIRE(lines.size() == 1 + k_synthetic_bars);
    CHECK(lines[1].rfind("609001.SH,2023-10-23,", 0) == 0);
    CHECK(lines[500].rfind("609001.SH," + plus_days("2023-10-23", 499) + ",", 0) == 0);
    CHECK(lines[501].rfind("609001.SH," + plus_days("2023-10-23", 500) + ",", 0) == 0);
    CHECK(lines.back().rfind("609001.SH,2025-10-23,", 0) == 0);
    CHECK(remote_run.out == local_run.out);
    CHECK(local_run.err == "");
    CHECK(remote_run.err == "");
  }
  SUBCASE("desc") {
    const auto args = concat(bars, {"--format", "csv", "--sort", "desc"});
    const auto local_run = local(args);
    const auto remote_run = remote(args, query_world().free.plaintext);
    REQUIRE(local_run.status == 0);
    REQUIRE(remote_run.status == 0);
    CHECK(split_lines(remote_run.out).size() == 1 + k_synthetic_bars);
    CHECK(remote_run.out == local_run.out);
  }
  SUBCASE("json and summary: one body over the whole window") {
    for (const auto& extra : {std::vector<std::string>{"--format", "json"},
                              std::vector<std::string>{"--format", "json", "--summary"}}) {
      const auto local_run = local(concat(bars, extra));
      const auto remote_run = remote(concat(bars, extra), query_world().free.plaintext);
      INFO("remote: " << describe(remote_run));
      REQUIRE(local_run.status == 0);
      REQUIRE(remote_run.status == 0);
      const auto body = normalized(remote_run.out);
      CHECK(body["resultsCount"] == k_synthetic_bars);
      CHECK(body["ohlc"].size() == static_cast<std::size_t>(k_synthetic_bars));
      CHECK_FALSE(body.contains("next_url"));
      CHECK(body == normalized(local_run.out));
    }
  }
  SUBCASE("ndjson and table") {
    for (const std::string format : {"ndjson", "table"}) {
      const auto local_run = local(concat(bars, {"--format", format}));
      const auto remote_run = remote(concat(bars, {"--format", format}), query_world().free.plaintext);
      REQUIRE(local_run.status == 0);
      REQUIRE(remote_run.status == 0);
      CHECK(remote_run.out == local_run.out);
    }
  }
}

TEST_CASE("cli query: --limit N prints exactly N bars and says when more exist") {
  const std::string note = "ashare: note: 609001.SH: more bars exist in the window; showing the "
                           "first 10 (drop --limit to see all)\n";
  const std::vector<std::string> args{"bars",    "609001.SH", "2023-10-23", "2025-10-23",
                                      "--limit", "10",        "--format",   "csv"};
  for (const auto& run : {local(args), remote(args, query_world().free.plaintext)}) {
    INFO(describe(run));
    CHECK(run.status == 0);
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() == 11);
    CHECK(lines[10].rfind("609001.SH," + plus_days("2023-10-23", 9) + ",", 0) == 0);
    CHECK(run.err == note);
  }

  SUBCASE("no note when the limit covers the window") {
    for (const std::string limit : {"732", "733"}) {
      const auto run = local(
          {"bars", "609001.SH", "2023-10-23", "2025-10-23", "--limit", limit, "--format", "csv"});
      CHECK(run.status == 0);
      CHECK(split_lines(run.out).size() == 1 + k_synthetic_bars);
      CHECK(run.err == "");
    }
    const auto run = local(
        {"bars", "609001.SH", "2023-10-23", "2025-10-23", "--limit", "731", "--format", "csv"});
    CHECK(split_lines(run.out).size() == k_synthetic_bars);
    CHECK(run.err.find("more bars exist") != std::string::npos);
  }
  SUBCASE("one note per truncated symbol") {
    const auto run = local({"bars", "600519.SH,609001.SH", "2025-10-13", "2025-10-23", "--limit",
                            "9", "--format", "csv"});
    INFO(describe(run));
    CHECK(run.status == 0);
    // 600519.SH traded on 9 days of the window, 609001.SH on all 11.
    CHECK(split_lines(run.out).size() == 1 + 9 + 9);
    CHECK(run.err
          == "ashare: note: 609001.SH: more bars exist in the window; showing the first 9 (drop "
             "--limit to see all)\n");
  }
}

TEST_CASE("cli query: indicators print every value of a window, and say when more exist") {
  // 609001.SH has a bar every calendar day: 547 values of SMA(5) in the window, two pages of a
  // Free key's 500 (D6, D9 next_url). Issue 12: the API's default limit of 10 no longer leaks.
  const std::vector<std::string> sma{"sma",  "609001.SH",  "--window", "5",
                                     "--from", "2024-01-01", "--to",     "2025-06-30"};
  for (const std::string order : {"asc", "desc"}) {
    CAPTURE(order);
    const auto args = concat(sma, {"--order", order, "--format", "csv"});
    const auto local_run = local(args);
    const auto remote_run = remote(args, query_world().free.plaintext);
    INFO("local: " << describe(local_run));
    INFO("remote: " << describe(remote_run));
    REQUIRE(local_run.status == 0);
    REQUIRE(remote_run.status == 0);
    const auto lines = split_lines(local_run.out);
    REQUIRE(lines.size() == 1 + 547);
    CHECK(lines[0] == "symbol,trade_date,t,value");
    CHECK(lines[1].rfind(order == "asc" ? "609001.SH,2024-01-01," : "609001.SH,2025-06-30,", 0)
          == 0);
    CHECK(lines.back().rfind(order == "asc" ? "609001.SH,2025-06-30," : "609001.SH,2024-01-01,",
                             0)
          == 0);
    CHECK(local_run.err.empty());
    CHECK(remote_run.out == local_run.out);
    CHECK(remote_run.err.empty());
  }
  SUBCASE("json: one body over the whole window, without next_url") {
    const auto run = local(concat(sma, {"--format", "json"}));
    REQUIRE(run.status == 0);
    const auto body = json::parse(run.out);
    CHECK(body["results"]["values"].size() == 547);
    CHECK_FALSE(body["results"].contains("next_url"));
  }
  SUBCASE("without a window: the latest 10, and a note that more exist") {
    for (const auto& run : {local({"sma", "609001.SH", "--window", "5", "--format", "csv"}),
                            remote({"sma", "609001.SH", "--window", "5", "--format", "csv"},
                                   query_world().free.plaintext)}) {
      INFO(describe(run));
      CHECK(run.status == 0);
      CHECK(split_lines(run.out).size() == 1 + 10);
      CHECK(run.err
            == "ashare: note: 609001.SH: more values exist; showing 10 (pass --limit N, or a "
               "window with --from/--to)\n");
    }
  }
  SUBCASE("--limit is kept, with a note when it leaves values out") {
    const auto run = local(concat(sma, {"--limit", "3", "--format", "csv"}));
    CHECK(split_lines(run.out).size() == 1 + 3);
    CHECK(run.err
          == "ashare: note: 609001.SH: more values exist; showing 3 (drop --limit to see every "
             "value of a --from/--to window)\n");
    const auto all = local(concat(sma, {"--limit", "547", "--format", "csv"}));
    CHECK(split_lines(all.out).size() == 1 + 547);
    CHECK(all.err.empty());
  }
}

TEST_CASE("cli query: --convention, ASHARE_CONVENTION and the config file's convention (D13)") {
  const Sandbox sandbox;
  const std::string db = query_world().store.data_locator();
  const std::vector<std::string> ema{"--db",   db,           "ema",  "600519.SH",  "--window",
                                     "12",     "--from",     "2024-06-03", "--to", "2024-06-28",
                                     "--format", "csv"};
  const auto talib = sandbox.run(ema);
  const auto tdx = sandbox.run(concat(ema, {"--convention", "tdx"}));
  INFO(describe(tdx));
  REQUIRE(talib.status == 0);
  REQUIRE(tdx.status == 0);
  CHECK(split_lines(tdx.out).size() == split_lines(talib.out).size());
  CHECK(split_lines(tdx.out)[0] == "symbol,trade_date,t,value");
  CHECK(tdx.out != talib.out); // seeded differently: 通达信's EMA from the first bar
  const auto remote_run = remote(
    {"ema", "600519.SH", "--window", "12", "--from", "2024-06-03", "--to", "2024-06-28",
     "--format", "csv", "--convention", "TDX"},
    query_world().pro.plaintext);
  INFO(describe(remote_run));
  CHECK(remote_run.out == tdx.out);
  CHECK(sandbox.run(ema, {"ASHARE_CONVENTION=tdx"}).out == tdx.out);
  write_file(sandbox.xdg_config_file(), "convention = \"tdx\"\n", 0644);
  CHECK(sandbox.run(ema).out == tdx.out);
  CHECK(sandbox.run(concat(ema, {"--convention", "talib"})).out == talib.out); // flag over file
  const auto bad = sandbox.run(concat(ema, {"--convention", "wilder"}));
  CHECK(bad.status == 2);
  CHECK(bad.err.find("convention \"wilder\"") != std::string::npos);
}

TEST_CASE("cli query: macd, bbands, atr and kdj print their named values (D13)") {
  struct Command {
    std::vector<std::string> args; // the command, its symbol and its own options
    std::string header;            // the CSV header
    std::vector<std::string> names; // the JSON value fields, in CSV column order
  };
  const std::vector<Command> commands{
    {{"macd", "600519.SH", "--fast", "6", "--slow", "13", "--signal", "5"},
     "symbol,trade_date,t,value,signal,histogram",
     {"value", "signal", "histogram"}},
    {{"bbands", "600519.SH", "--window", "10", "--k", "1.5"},
     "symbol,trade_date,t,value,upper,lower",
     {"value", "upper", "lower"}},
    {{"atr", "600036.SH", "--window", "5"}, "symbol,trade_date,t,value", {"value"}},
    {{"kdj", "600036.SH", "--n", "5", "--m1", "2", "--m2", "4"},
     "symbol,trade_date,t,value,d,j",
     {"value", "d", "j"}},
  };
  const std::vector<std::string> window{"--from", "2024-03-01", "--to", "2024-06-28"};
  for (const auto& command : commands) {
    CAPTURE(command.args[0]);
    for (const std::string convention : {"talib", "tdx"}) {
      CAPTURE(convention);
      const auto args = concat(concat(command.args, window), {"--convention", convention});
      const auto csv = local(concat(args, {"--format", "csv"}));
      const auto body = local(concat(args, {"--format", "json"}));
      INFO(describe(csv));
      REQUIRE(csv.status == 0);
      REQUIRE(body.status == 0);
      CHECK(csv.err.empty());
      const auto lines = split_lines(csv.out);
      REQUIRE(lines.size() > 70); // every value of four months, not the API's default 10
      CHECK(lines[0] == command.header);
      // Every CSV row is the JSON value it came from, to the last digit (D12).
      const auto values = json::parse(body.out)["results"]["values"];
      REQUIRE(values.size() == lines.size() - 1);
      for (std::size_t i = 0; i < values.size(); ++i) {
        CAPTURE(lines[i + 1]);
        const auto t = values[i]["timestamp"].get<std::int64_t>();
        const auto date = lines[i + 1].substr(command.args[1].size() + 1, 10);
        CHECK(t_ms(date) == t);
        CHECK(values[i].size() == 1 + command.names.size()); // timestamp and the named values
        std::string expected = command.args[1] + "," + date + "," + std::to_string(t);
        for (const auto& name : command.names) {
          expected += "," + d12(values[i][name].get<double>());
        }
        CHECK(lines[i + 1] == expected);
      }
      // Remote mode prints the same, through the server and the client's cache.
      const auto remote_run = remote(concat(args, {"--format", "csv"}), query_world().pro.plaintext);
      INFO(describe(remote_run));
      CHECK(remote_run.out == csv.out);
    }
    // The two conventions are different formulas (D13).
    CHECK(local(concat(concat(command.args, window), {"--format", "csv"})).out
          != local(concat(concat(command.args, window), {"--format", "csv", "--convention", "tdx"}))
               .out);
  }
  SUBCASE("--underlying: ATR and KDJ have no series type") {
    const auto atr = local({"atr", "600036.SH", "--limit", "2", "--underlying", "--format", "csv"});
    REQUIRE(atr.status == 0);
    CHECK(split_lines(atr.out)[0] == "symbol,trade_date,t,value,adjusted");
    CHECK(split_lines(atr.out)[1].substr(split_lines(atr.out)[1].size() - 5) == ",true");
    const auto bbands =
      local({"bbands", "600519.SH", "--limit", "2", "--underlying", "--raw", "--format", "csv"});
    REQUIRE(bbands.status == 0);
    CHECK(split_lines(bbands.out)[0] == "symbol,trade_date,t,value,upper,lower,series_type,adjusted");
    CHECK(split_lines(bbands.out)[1].find(",close,false") != std::string::npos);
  }
  SUBCASE("the table names every column") {
    // Issue 12: a title naming the indicator, its parameters and convention, and the value
    // column named after the line it is (the MACD line), then the named values.
    const auto run = local({"macd", "600519.SH", "--limit", "2", "--format", "table"});
    REQUIRE(run.status == 0);
    const auto lines = split_lines(run.out);
    CHECK(lines[0] == "600519.SH  MACD(12,26,9) talib  2025-10-22 .. 2025-10-23  forward-adjusted");
    CHECK(words(lines[1]) == std::vector<std::string>{"DATE", "MACD", "SIGNAL", "HISTOGRAM"});
    CHECK(words(lines[2]) == std::vector<std::string>{"CNY", "CNY", "CNY"});
  }
  SUBCASE("parameters out of range: usage errors, or the API's message") {
    for (const auto& args : std::vector<std::vector<std::string>>{
           {"macd", "600519.SH", "--fast", "1"},
           {"macd", "600519.SH", "--signal", "0"},
           {"bbands", "600519.SH", "--window", "1"},
           {"kdj", "600519.SH", "--n", "0"},
           {"atr", "600519.SH", "--window", "5001"},
           {"atr", "600519.SH", "--series", "high"}, // ATR reads high, low and close
           {"kdj", "600519.SH", "--window", "9"}}) {
      CAPTURE(args);
      const auto run = local(args);
      CHECK(run.status == 2);
      CHECK(run.out.empty());
    }
    const auto fast = local({"macd", "600519.SH", "--fast", "26"});
    CHECK(fast.status == 1);
    CHECK(fast.err
          == "ashare: error: INVALID_PARAMETER: invalid fast \"26\": expected less than slow (26)\n");
    for (const std::string k : {"0", "10.5", "1e1", ".5", "-1"}) {
      CAPTURE(k);
      const auto run = local({"bbands", "600519.SH", "--k", k});
      CHECK(run.status == 1);
      CHECK(run.err.find("INVALID_PARAMETER: invalid k \"" + k + "\"") != std::string::npos);
    }
  }
}

TEST_CASE("cli query: TO defaults to as_of and FROM to one year before TO") {
  struct Row {
    std::vector<std::string> implicit;
    std::vector<std::string> explicit_dates;
  };
  const Row rows[] = {
      {{"bars", "600519.SH"}, {"bars", "600519.SH", "2024-10-23", "2025-10-23"}},
      {{"bars", "600519.SH", "2025-09-01"}, {"bars", "600519.SH", "2025-09-01", "2025-10-23"}},
      {{"bars", "600519.SH", "--from", "2025-09-01"},
       {"bars", "600519.SH", "2025-09-01", "2025-10-23"}},
      {{"bars", "600519.SH", "--to", "2025-03-03"},
       {"bars", "600519.SH", "2024-03-03", "2025-03-03"}},
  };
  for (const auto& row : rows) {
    CAPTURE(row.implicit);
    const auto expected = local(concat(row.explicit_dates, {"--format", "json"}));
    REQUIRE(expected.status == 0);
    const auto local_run = local(concat(row.implicit, {"--format", "json"}));
    const auto remote_run =
        remote(concat(row.implicit, {"--format", "json"}), query_world().free.plaintext);
    INFO("local: " << describe(local_run));
    INFO("remote: " << describe(remote_run));
    CHECK(local_run.status == 0);
    CHECK(remote_run.status == 0);
    CHECK(normalized(local_run.out) == normalized(expected.out));
    CHECK(normalized(remote_run.out) == normalized(expected.out));
  }
  // One year before 29 February is 28 February.
  const auto leap = local({"bars", "609001.SH", "--to", "2024-02-29", "--format", "json"});
  REQUIRE(leap.status == 0);
  CHECK(json::parse(leap.out)["from"] == "2023-02-28");
  CHECK(json::parse(leap.out)["to"] == "2024-02-29");
}

TEST_CASE("cli query: exit statuses") {
  SUBCASE("1: an unknown single symbol") {
    for (const auto& args :
         {std::vector<std::string>{"bars", "600000.SH", "2024-06-14", "2024-06-21"},
          std::vector<std::string>{"sma", "600000.SH"}}) {
      for (const auto& run : {local(args), remote(args, query_world().pro.plaintext)}) {
        INFO(describe(run));
        CHECK(run.status == 1);
        CHECK(run.out == "");
        CHECK(run.err.rfind("ashare: error: INVALID_SYMBOL: ", 0) == 0);
        CHECK(run.err.find("600000.SH") != std::string::npos);
        CHECK(split_lines(run.err).size() == 1);
      }
    }
  }
  SUBCASE("1: a multi-symbol answer with an item error, after printing the other rows") {
    const auto run =
        local({"bars", "600519.SH,600000.SH", "2024-06-14", "2024-06-21", "--format", "csv"});
    INFO(describe(run));
    CHECK(run.status == 1);
    CHECK(run.out == read_text(golden("bars_600519.SH_2024-06-14_2024-06-21.csv")));
    CHECK(run.err == "ashare: error: INVALID_SYMBOL: unknown symbol \"600000.SH\"\n");

    const auto sma = local({"sma", "600519.SH,600000.SH", "--window", "5", "--from", "2024-06-17",
                            "--to", "2024-06-21", "--order", "asc", "--format", "csv"});
    INFO(describe(sma));
    CHECK(sma.status == 1);
    CHECK(sma.out == read_text(golden("sma_600519.SH_w5_2024-06-17_2024-06-21_asc.csv")));
    CHECK(sma.err == "ashare: error: INVALID_SYMBOL: unknown symbol \"600000.SH\"\n");
  }
  SUBCASE("1: parameters the core rejects") {
    for (const auto& args :
         {std::vector<std::string>{"bars", "600519.SH", "2024-06-21", "2024-06-14"},
          std::vector<std::string>{"bars", "600519.SH", "2024-02-30", "2024-03-01"},
          std::vector<std::string>{"sma", "600519.SH", "--at", "yesterday"}}) {
      const auto run = local(args);
      INFO(describe(run));
      CHECK(run.status == 1);
      CHECK(run.out == "");
      CHECK(run.err.rfind("ashare: error: INVALID_PARAMETER: ", 0) == 0);
    }
  }
  SUBCASE("1: an empty store says to import or to set a base URL") {
    const Sandbox sandbox;
    const auto run =
        sandbox.run({"--db", (sandbox.home() / "empty.db").string(), "bars", "600519.SH"});
    INFO(describe(run));
    CHECK(run.status == 1);
    CHECK(run.out == "");
    CHECK(run.err.rfind("ashare: error: no data in ", 0) == 0);
    CHECK(run.err.find("ashare import") != std::string::npos);
    CHECK(run.err.find("--base-url") != std::string::npos);
  }
  SUBCASE("2: usage errors, never CLI11's own statuses") {
    const std::vector<std::vector<std::string>> rows{
        {},
        {"frobnicate"},
        {"bars"},
        {"sma"},
        {"bars", "600519.SH", "--bogus"},
        {"bars", "600519.SH", "--format", "bogus"},
        {"bars", "600519.SH", "--limit", "0"},
        {"bars", "600519.SH", "--limit", "5001"},
        {"bars", "600519.SH", "--limit", "ten"},
        {"bars", "600519.SH", "--sort", "sideways"},
        {"bars", "600519.SH", "2024-01-01", "2024-02-01", "extra"},
        {"ema", "600519.SH", "--window", "0"},
        {"rsi", "600519.SH", "--series", "volume"},
        {"sma", "600519.SH", "--order", "up"},
        {"symbols", "--format", "xml"},
        {"--timeout", "0", "bars", "600519.SH"},
        {"--retries", "11", "bars", "600519.SH"},
    };
    for (const auto& args : rows) {
      const auto run = local(args);
      INFO(describe(run));
      CAPTURE(args);
      CHECK(run.status == 2);
      CHECK(run.out == "");
      CHECK(run.err.rfind("ashare: error: ", 0) == 0);
    }
    const auto summary =
        local({"bars", "600519.SH", "2024-06-14", "2024-06-21", "--summary", "--format", "csv"});
    CHECK(summary.status == 2);
    CHECK(summary.out == "");
    CHECK(summary.err
          == "ashare: error: --summary does not fit csv output: use --format table or json\n");
  }
  SUBCASE("0: --help and --version") {
    const Sandbox sandbox;
    const auto help = sandbox.run({"--help"});
    CHECK(help.status == 0);
    CHECK(help.out.find("Usage:") != std::string::npos);
    CHECK(help.out.find("Exit status: 0 success, 1 data or API error, 2 usage error, 3 network "
                        "error,\n4 authentication, credits, plan or request rate refused (HTTP 401, 402, 403, "
                        "429).")
          != std::string::npos);
    const auto bars_help = sandbox.run({"bars", "--help"});
    CHECK(bars_help.status == 0);
    CHECK(bars_help.out.find("--limit") != std::string::npos);
    // A command line that names its command registers that command alone (issue 11, P2): the
    // top-level help still lists them all, also after global options, and a command's help is
    // the same whether global options or --help come before its name.
    for (const auto& args : {std::vector<std::string>{"--help"},
                             std::vector<std::string>{"--db", "x.db", "--help"},
                             std::vector<std::string>{"--offline", "--help"}}) {
      CAPTURE(args);
      const auto top = sandbox.run(args);
      CHECK(top.status == 0);
      for (const char* command : {"bars", "ema", "kdj", "chart", "import", "keys", "serve"}) {
        CHECK(top.out.find(std::string("\n  ") + command + " ") != std::string::npos);
      }
    }
    for (const auto& args : {std::vector<std::string>{"--db", "x.db", "bars", "--help"},
                             std::vector<std::string>{"--db=x.db", "--offline", "bars", "--help"},
                             std::vector<std::string>{"--db", "x.db", "--help", "bars"}}) {
      CAPTURE(args);
      const auto named = sandbox.run(args);
      CHECK(named.status == 0);
      CHECK(named.out == bars_help.out);
    }
    const auto version = sandbox.run({"--version"});
    CHECK(version.status == 0);
    CHECK(version.out.rfind("ashare ", 0) == 0);
    CHECK(version.err == "");
  }
  SUBCASE("3: the remote cannot be reached") {
    const std::string url = "http://127.0.0.1:" + std::to_string(closed_port());
    for (const auto& args :
         {std::vector<std::string>{"bars", "600519.SH", "2024-06-14", "2024-06-21"},
          std::vector<std::string>{"bars", "600519.SH"},
          std::vector<std::string>{"ema", "600519.SH"}, std::vector<std::string>{"info"}}) {
      const auto run =
          Sandbox{}.run(concat({"--base-url", url, "--retries", "0", "--timeout", "1"}, args));
      INFO(describe(run));
      CAPTURE(args);
      CHECK(run.status == 3);
      CHECK(run.err.find("ashare: error: cannot reach " + url) != std::string::npos);
    }
  }
  SUBCASE("4: 401, 402 and 403") {
    struct Row {
      const char* what;
      std::optional<std::string> key;
      std::vector<std::string> args;
      const char* code;
    };
    const std::vector<std::string> one{"bars", "600519.SH", "2024-06-14", "2024-06-21"};
    const Row rows[] = {
        {"401: a bad key", std::string("ask_not-a-key"), one, "UNAUTHORIZED"},
        {"401: no key", std::nullopt, one, "UNAUTHORIZED"},
        {"401: a bad key, default window",
         std::string("ask_not-a-key"),
         {"bars", "600519.SH"},
         "UNAUTHORIZED"},
        {"401: indicators", std::string("ask_not-a-key"), {"rsi", "600519.SH"}, "UNAUTHORIZED"},
        {"402: a metered key without credits", query_world().broke.plaintext, one,
         "INSUFFICIENT_CREDITS"},
        {"403: a Free key with two symbols",
         query_world().free.plaintext,
         {"rsi", "600519.SH,600036.SH"},
         "PLAN_LIMIT"},
        {"403: a Free key beyond its history",
         query_world().free.plaintext,
         {"bars", "600519.SH", "2023-09-25", "2023-10-31"},
         "PLAN_LIMIT"},
    };
    for (const auto& row : rows) {
      CAPTURE(row.what);
      std::vector<std::string> args{"--base-url", query_world().base_url()};
      if (row.key) {
        args.push_back("--api-key");
        args.push_back(*row.key);
      }
      const auto run = Sandbox{}.run(concat(args, row.args));
      INFO(describe(run));
      CHECK(run.status == 4);
      CHECK(run.out == "");
      CHECK(run.err.rfind("ashare: error: " + std::string(row.code) + ": ", 0) == 0);
      CHECK(split_lines(run.err).size() == 1);
    }
  }
}

TEST_CASE("cli query: ndjson is one object per bar or value, with its symbol") {
  const auto run = local({"bars", "600519.SH,600036.SH", "2024-06-19", "2024-06-20", "--format",
                          "ndjson", "--summary"});
  INFO(describe(run));
  REQUIRE(run.status == 0);
  const auto lines = split_lines(run.out);
  REQUIRE(lines.size() == 4 + 2);
  std::size_t line = 0;
  for (const auto& [file, symbol] : {std::pair{"bancob_600519.SH.csv", "600519.SH"},
                                     std::pair{"bancob_600036.SH.csv", "600036.SH"}}) {
    const auto rows = read_csv(fixture(file));
    const double latest = *rows.back().factor;
    for (const auto& bar : in_range(rows, "2024-06-19", "2024-06-20")) {
      CAPTURE(lines[line]);
      const auto object = json::parse(lines[line++]);
      CHECK(object.size() == 11);
      CHECK(object["symbol"] == symbol);
      CHECK(object["trade_date"] == bar.date);
      CHECK(object["t"] == t_ms(bar.date));
      CHECK(object["open"] == adjust(bar.open, *bar.factor, latest));
      CHECK(object["high"] == adjust(bar.high, *bar.factor, latest));
      CHECK(object["low"] == adjust(bar.low, *bar.factor, latest));
      CHECK(object["close"] == adjust(bar.close, *bar.factor, latest));
      CHECK(object["volume"] == bar.volume);
      CHECK(object["turnover"] == bar.turnover);
      CHECK(object["change_pct"] == *bar.change_pct);
      CHECK(object["factor"] == *bar.factor);
    }
  }
  // --summary: one last line per symbol, D8's summary of the bars printed.
  for (const auto& [file, symbol] : {std::pair{"bancob_600519.SH.csv", "600519.SH"},
                                     std::pair{"bancob_600036.SH.csv", "600036.SH"}}) {
    const auto rows = read_csv(fixture(file));
    const double latest = *rows.back().factor;
    const auto bars = in_range(rows, "2024-06-19", "2024-06-20");
    const double open_first = adjust(bars.front().open, *bars.front().factor, latest);
    const double close_last = adjust(bars.back().close, *bars.back().factor, latest);
    CAPTURE(lines[line]);
    const auto object = json::parse(lines[line++]);
    CHECK(object
          == json{{"symbol", symbol},
                  {"summary",
                   {{"from", "2024-06-19"},
                    {"to", "2024-06-20"},
                    {"bars_count", 2},
                    {"open_first", open_first},
                    {"close_last", close_last},
                    {"return_pct", round4((close_last / open_first - 1) * 100)}}}});
  }

  SUBCASE("indicator values") {
    const auto values =
        local({"sma", "600519.SH,600036.SH", "--window", "5", "--from", "2024-06-17", "--to",
               "2024-06-18", "--order", "asc", "--format", "ndjson"});
    REQUIRE(values.status == 0);
    const auto value_lines = split_lines(values.out);
    REQUIRE(value_lines.size() == 4);
    const auto expected =
        split_lines(expected_sma_rows("bancob_600519.SH.csv", 5, "2024-06-17", "2024-06-18", ""));
    for (std::size_t i = 0; i < 4; ++i) {
      const auto object = json::parse(value_lines[i]);
      CHECK(object["symbol"] == (i < 2 ? "600519.SH" : "600036.SH"));
      // The bars' vocabulary (issue 12): trade_date and t, as a bar's line.
      CHECK(object["trade_date"] == (i % 2 == 0 ? "2024-06-17" : "2024-06-18"));
      CHECK(object["t"] == t_ms(i % 2 == 0 ? "2024-06-17" : "2024-06-18"));
      CHECK_FALSE(object.contains("timestamp"));
      if (i < 2) {
        // The same value the csv prints: "symbol,trade_date,t,value".
        CHECK(d12(object["value"].get<double>()) == expected[i].substr(expected[i].rfind(',') + 1));
      }
    }
  }
}

TEST_CASE("cli query: table output is aligned, with thousands separators and no colour in a pipe") {
  const std::vector<std::string> args{
      "bars", "600519.SH,600036.SH", "2024-06-18", "2024-06-20", "--format", "table"};
  const auto run = local(args);
  INFO(describe(run));
  REQUIRE(run.status == 0);
  const auto lines = split_lines(run.out);
  REQUIRE(lines.size() == 3 + 6); // title, headers, units, rows
  // No width in a pipe (no terminal, no COLUMNS): every column, every symbol in the title.
  CHECK(lines[0] == "600519.SH, 600036.SH  2024-06-18 .. 2024-06-20  forward-adjusted");
  CHECK(words(lines[1])
        == std::vector<std::string>{"SYMBOL", "DATE", "OPEN", "HIGH", "LOW", "CLOSE", "CHANGE%",
                                    "VOLUME", "TURNOVER", "FACTOR"});
  // Every column right-aligned but the first two: every row ends in the header's column, each
  // header and unit ends where its cells end, and within a column the points line up.
  for (std::size_t i = 3; i < lines.size(); ++i) {
    CHECK(lines[i].size() == lines[1].size());
  }
  const auto ends = [](const std::string& line) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] != ' ' && (i + 1 == line.size() || line[i + 1] == ' ')) {
        out.push_back(i);
      }
    }
    return out;
  };
  const auto header_ends = ends(lines[1]);
  const auto unit_ends = ends(lines[2]); // OPEN, HIGH, LOW, CLOSE, VOLUME, TURNOVER
  REQUIRE(unit_ends.size() == 6);
  for (std::size_t unit = 0; unit < unit_ends.size(); ++unit) {
    CHECK(unit_ends[unit] == header_ends[unit < 4 ? unit + 2 : unit + 3]);
  }
  for (std::size_t i = 3; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    const auto cell_ends = ends(lines[i]);
    REQUIRE(cell_ends.size() == header_ends.size());
    for (std::size_t column = 2; column < header_ends.size(); ++column) {
      CHECK(cell_ends[column] == header_ends[column]);
    }
    for (std::size_t column = 2; column <= 6; ++column) { // OPEN .. CHANGE%
      CHECK(lines[i][cell_ends[column] - 4] == '.');
    }
  }
  // 600036.SH on 2024-06-18: volume 45367539 and turnover 1538144780 in the fixture.
  const auto rows = read_csv(fixture("bancob_600036.SH.csv"));
  const auto bar = in_range(rows, "2024-06-18", "2024-06-18").at(0);
  CHECK(bar.volume == 45367539);
  CHECK(bar.turnover == 1538144780.0);
  CHECK(words(lines[6]).at(0) == "600036.SH");
  CHECK(words(lines[6]).at(7) == "45,367,539");
  CHECK(words(lines[6]).at(8) == "1,538,144,780");
  CHECK(run.out.find('\x1b') == std::string::npos);

  SUBCASE("NO_COLOR changes nothing in a pipe") {
    const auto no_color = local(args, {"NO_COLOR=1"});
    CHECK(no_color.status == 0);
    CHECK(no_color.out == run.out);
    CHECK(no_color.out.find('\x1b') == std::string::npos);
  }
  SUBCASE("the summary prints below the table") {
    const auto summary =
        local({"bars", "600519.SH", "2024-06-14", "2024-06-21", "--format", "table", "--summary"});
    REQUIRE(summary.status == 0);
    const auto table = read_text(golden("bars_600519.SH_2024-06-14_2024-06-21_table.txt"));
    REQUIRE(summary.out.rfind(table, 0) == 0);
    // open_first 1471.2303 (2024-06-14), close_last 1420.591 (2024-06-21):
    // round4((1420.591 / 1471.2303 - 1) * 100) = -3.442.
    CHECK(summary.out.substr(table.size())
          == "\n600519.SH  2024-06-14 .. 2024-06-21  6 bars  open_first 1471.2303  close_last "
             "1420.591  return_pct -3.442\n");
    CHECK(round4((1420.591 / 1471.2303 - 1) * 100) == -3.442);
    // Narrower than the line: two lines rather than a wrap (COLUMNS in a pipe, as a terminal's).
    const auto narrow = local(
        {"bars", "600519.SH", "2024-06-14", "2024-06-21", "--format", "table", "--summary"},
        {"COLUMNS=80"});
    REQUIRE(narrow.status == 0);
    const auto tail = narrow.out.substr(narrow.out.rfind("\n\n600519.SH"));
    CHECK(tail
          == "\n\n600519.SH  2024-06-14 .. 2024-06-21  6 bars\n  open_first 1471.2303  close_last "
             "1420.591  return_pct -3.442\n");
  }
}

TEST_CASE("cli query: the config file, under the environment and the flags") {
  const Sandbox sandbox;
  const std::string db = query_world().store.data_locator();
  const std::vector<std::string> bars{"bars", "600519.SH", "2024-06-14", "2024-06-21"};
  const std::string csv = read_text(golden("bars_600519.SH_2024-06-14_2024-06-21.csv"));
  // Whether `out` is a bars body (what --format json prints).
  const auto is_json_body = [](const std::string& out) {
    const auto body = json::parse(out, nullptr, false);
    return body.is_object() && body.contains("ohlc");
  };

  SUBCASE("XDG_CONFIG_HOME/ashare/config.toml gives db and format") {
    write_file(sandbox.xdg_config_file(), "# test\ndb = \"" + db + "\"\nformat = \"json\"\n", 0644);
    const auto from_file = sandbox.run(bars);
    INFO(describe(from_file));
    REQUIRE(from_file.status == 0);
    CHECK(is_json_body(from_file.out));
    CHECK(normalized(from_file.out) == normalized(local(concat(bars, {"--format", "json"})).out));

    const auto env = sandbox.run(bars, {"ASHARE_FORMAT=csv"});
    CHECK(env.status == 0);
    CHECK(env.out == csv);

    const auto flag = sandbox.run(concat(bars, {"--format", "ndjson"}), {"ASHARE_FORMAT=csv"});
    CHECK(flag.status == 0);
    CHECK(split_lines(flag.out).size() == 6);
    CHECK(json::parse(split_lines(flag.out)[0])["symbol"] == "600519.SH");

    // ASHARE_DB over the file's db, --db over ASHARE_DB.
    const auto empty = (sandbox.home() / "empty.db").string();
    const auto env_db = sandbox.run(bars, {"ASHARE_DB=" + empty});
    CHECK(env_db.status == 1);
    CHECK(env_db.out == "");
    const auto flag_db = sandbox.run(concat({"--db", db}, concat(bars, {"--format", "csv"})),
                                     {"ASHARE_DB=" + empty});
    CHECK(flag_db.status == 0);
    CHECK(flag_db.out == csv);

    // Empty values count as unset: the file's format applies.
    const auto empty_env = sandbox.run(bars, {"ASHARE_FORMAT="});
    CHECK(empty_env.status == 0);
    CHECK(is_json_body(empty_env.out));

    const auto bad_env = sandbox.run(bars, {"ASHARE_FORMAT=xml"});
    CHECK(bad_env.status == 2);
    CHECK(bad_env.err
          == "ashare: error: invalid format \"xml\": expected table, csv, json or ndjson\n");
  }
  SUBCASE("--config names another file, instead of the default one") {
    write_file(sandbox.xdg_config_file(), "format = \"json\"\n");
    const auto other = sandbox.home() / "other.toml";
    write_file(other, "db = '" + db + "'\nformat = 'csv'  # comment\n");
    const auto run = sandbox.run(concat({"--config", other.string()}, bars));
    INFO(describe(run));
    CHECK(run.status == 0);
    CHECK(run.out == csv);
  }
  SUBCASE("base_url and api_key from a file only its owner can read") {
    write_file(sandbox.xdg_config_file(),
               "base_url = \"" + query_world().base_url() + "\"\napi_key = \"" + query_world().pro.plaintext
                   + "\"\nformat = \"csv\"\n",
               0600);
    // The environment's key wins over the file's (first, while the client's cache is empty).
    const auto bad_key = sandbox.run(bars, {"ASHARE_API_KEY=ask_not-a-key"});
    CHECK(bad_key.status == 4);
    CHECK(bad_key.err.rfind("ashare: error: UNAUTHORIZED: ", 0) == 0);
    const auto run = sandbox.run(bars);
    INFO(describe(run));
    CHECK(run.status == 0);
    CHECK(run.out == csv);
    const auto info = sandbox.run({"info"});
    CHECK(info.out.find("mode: remote\n") != std::string::npos);
  }
  SUBCASE("a file holding api_key readable by others is refused with the chmod that fixes it") {
    const auto path = sandbox.xdg_config_file();
    write_file(path, "db = \"" + db + "\"\napi_key = \"" + query_world().pro.plaintext + "\"\n", 0644);
    const auto run = sandbox.run(concat(bars, {"--format", "csv"}));
    INFO(describe(run));
    CHECK(run.status == 2);
    CHECK(run.out == "");
    CHECK(run.err
          == "ashare: error: config file " + path.string()
                 + " holds an API key and is readable by group or others; fix it with: chmod 600 "
                 + path.string() + "\n");
    REQUIRE(::chmod(path.c_str(), 0600) == 0);
    const auto fixed = sandbox.run(concat(bars, {"--format", "csv"}));
    CHECK(fixed.status == 0);
    CHECK(fixed.out == csv);
  }
  SUBCASE("an unknown key is a usage error naming path:line") {
    const auto path = sandbox.xdg_config_file();
    write_file(path, "db = \"" + db + "\"\n\ncolour = \"red\"\n");
    const auto run = sandbox.run(bars);
    CHECK(run.status == 2);
    CHECK(run.err
          == "ashare: error: " + path.string()
                 + ":3: unknown key \"colour\" (known: db, keys_db, cache_db, base_url, api_key, "
                   "format, convention, plan, listen, threads, max_connections, header_timeout, "
                   "idle_timeout, write_timeout, drain_timeout, cache_budget, rate_limit, tushare_token, tushare_url, tdx_hosts, szse_url, indices, members)\n");
  }
}

TEST_CASE("cli query: symbols and info") {
  struct Expected {
    std::string symbol;
    std::string first;
    std::string last;
    std::int64_t bars;
    std::string factor_origin; // jenny's canonical file has no factor column
    std::string kind = "stock"; // D20: by the code (no list names them)
  };
  std::vector<Expected> expected;
  for (const auto* file : {"jenny_000001.SZ.csv", "bancob_600036.SH.csv", "bancob_600519.SH.csv"}) {
    const auto rows = read_csv(fixture(file));
    expected.push_back({rows.front().symbol, rows.front().date, rows.back().date,
                        static_cast<std::int64_t>(rows.size()),
                        std::string(file).starts_with("jenny") ? "none" : "file"});
  }
  expected.push_back({"609001.SH", "2023-10-23", "2025-10-23", k_synthetic_bars, "file"});
  REQUIRE(expected[0].bars == 1212);

  SUBCASE("csv") {
    const auto run = local({"symbols", "--format", "csv"});
    std::string csv =
      "symbol,first_date,last_date,bars,source,factor_origin,adjusted_input,alias,kind,name\n";
    for (const auto& e : expected) {
      csv += e.symbol + "," + e.first + "," + e.last + "," + std::to_string(e.bars)
             + ",cli-fixtures," + e.factor_origin + ",false,," + e.kind + ",\n";
    }
    CHECK(run.status == 0);
    CHECK(run.out == csv);
    CHECK(local({"symbols"}).out == csv); // csv in a pipe
    CHECK(local({"symbols", "--format", "csv", "--no-header"}).out
          == csv.substr(csv.find('\n') + 1));
  }
  SUBCASE("table") {
    const auto run = local({"symbols", "--format", "table"});
    CHECK(run.status == 0);
    CHECK(run.out
          == "SYMBOL     KIND   FIRST       LAST         BARS  SOURCE        FACTORS\n"
             "000001.SZ  stock  2020-01-02  2024-12-31  1,212  cli-fixtures  none\n"
             "600036.SH  stock  2023-09-25  2025-10-23    500  cli-fixtures  file\n"
             "600519.SH  stock  2023-09-25  2025-10-23    500  cli-fixtures  file\n"
             "609001.SH  stock  2023-10-23  2025-10-23    732  cli-fixtures  file\n");
  }
  SUBCASE("json and --names") {
    const auto run = local({"symbols", "--format", "json"});
    CHECK(run.status == 0);
    json all = json::array();
    std::string names;
    for (const auto& e : expected) {
      all.push_back({{"symbol", e.symbol},
                     {"first_date", e.first},
                     {"last_date", e.last},
                     {"bars", e.bars},
                     {"source", "cli-fixtures"},
                     {"factor_origin", e.factor_origin},
                     {"adjusted_input", false},
                     {"alias", nullptr},
                     {"kind", e.kind.empty() ? json() : json(e.kind)},
                     {"name", ""}});
      names += e.symbol + "\n";
    }
    CHECK(json::parse(run.out) == all);
    CHECK(local({"symbols", "--names"}).out == names);
  }
  SUBCASE("info, local") {
    const auto run = local({"info"});
    INFO(describe(run));
    CHECK(run.status == 0);
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() >= 7);
    CHECK(lines[0] == "mode: local");
    CHECK(lines[1].rfind("store: " + query_world().store.data_locator() + " (", 0) == 0);
    // A file's size, or what a database server is (issue 14).
    CHECK(lines[1].find(query_world().store.data_on_server() ? " (PostgreSQL)" : " bytes)")
          != std::string::npos);
    CHECK(run.out.find("\nsymbols: 4\n") != std::string::npos);
    CHECK(run.out.find("\nbars: " + std::to_string(1212 + 500 + 500 + k_synthetic_bars) + "\n")
          != std::string::npos);
    CHECK(run.out.find("\nas_of: 2025-10-23\n") != std::string::npos);
    CHECK(run.out.find("\nsource: cli-fixtures\n") != std::string::npos);
  }
  SUBCASE("info, remote") {
    const auto run = remote({"info"}, query_world().free.plaintext);
    INFO(describe(run));
    CHECK(run.status == 0);
    CHECK(run.out.rfind("mode: remote\nbase_url: " + query_world().base_url() + "\n", 0) == 0);
    CHECK(run.out.find("\nas_of: 2025-10-23\n") != std::string::npos);
    CHECK(run.out.find(query_world().free.plaintext) == std::string::npos); // never the key itself
  }
}

TEST_CASE("cli query: local mode pages through the core past 5000 bars") {
  // 609002.SH: 5100 consecutive calendar days, more than one answer of the core (limit 5000).
  TestStore store;
  const auto path = store.dir() / "synthetic_609002.SH.csv";
  {
    std::ofstream out(path);
    out << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n";
    std::string day = "2011-10-01";
    for (int i = 0; i < 5100; ++i, day = plus_days(day, 1)) {
      out << "609002.SH," << day << ",10,12,9,11," << 100 + i << "," << 1100 + i << ",0,1\n";
    }
  }
  store.import({path});
  const auto pro = store.create_key("pro");
  ServerProcess server(store);
  const std::vector<std::string> args{"bars", "609002.SH", "2000-01-01", "2030-12-31", "--format"};

  const auto csv = Sandbox{}.run(concat({"--db", store.data_locator()}, concat(args, {"csv"})));
  INFO(describe(csv));
  REQUIRE(csv.status == 0);
  const auto lines = split_lines(csv.out);
  REQUIRE(lines.size() == 1 + 5100);
  CHECK(lines[1].rfind("609002.SH,2011-10-01,", 0) == 0);
  CHECK(lines.back().rfind("609002.SH," + plus_days("2011-10-01", 5099) + ",", 0) == 0);
  CHECK(csv.err == "");

  const auto remote_csv =
      Sandbox{}.run(concat({"--base-url", "http://127.0.0.1:" + std::to_string(server.port()),
                            "--api-key", pro.plaintext},
                           concat(args, {"csv"})));
  CHECK(remote_csv.status == 0);
  CHECK(remote_csv.out == csv.out);

  const auto json_run =
      Sandbox{}.run(concat({"--db", store.data_locator()}, concat(args, {"json"})));
  REQUIRE(json_run.status == 0);
  const auto body = json::parse(json_run.out);
  CHECK(body["resultsCount"] == 5100);
  CHECK(body["ohlc"].size() == 5100u);
  CHECK_FALSE(body.contains("next_url"));
}

namespace {

// A stand-in remote on 127.0.0.1 that answers requests with `status` and an error body (all of
// them, or all but /healthz, which then answers like a healthy server), and records the targets
// asked for.
class FailingRemote {
public:
  FailingRemote(int status, bool healthy_healthz) {
    m_server.Get(".*", [this, status, healthy_healthz](const httplib::Request& request,
                                                       httplib::Response& response) {
      if (healthy_healthz && request.path == "/healthz") {
        response.set_content(
            R"({"status":"ok","as_of":"2025-10-23","schema_version":"2026-05-27"})",
            "application/json");
        return;
      }
      {
        std::lock_guard lock(m_mutex);
        ++m_failed[request.target];
      }
      response.status = status;
      response.set_content(R"({"error":{"code":"INTERNAL_ERROR","message":"boom"}})",
                           "application/json");
    });
    m_port = m_server.bind_to_any_port("127.0.0.1");
    REQUIRE(m_port > 0);
    m_thread = std::thread([this] { m_server.listen_after_bind(); });
  }
  ~FailingRemote() {
    m_server.stop();
    m_thread.join();
  }
  FailingRemote(const FailingRemote&) = delete;
  FailingRemote& operator=(const FailingRemote&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }

  // How many times each failed target was asked for since the last call; then forget them.
  std::map<std::string, int> take_failed() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_failed, {});
  }

private:
  httplib::Server m_server;
  std::mutex m_mutex;
  std::map<std::string, int> m_failed;
  int m_port = 0;
  std::thread m_thread;
};

} // namespace

TEST_CASE("cli query: 5xx answers are retried --retries times, then reported") {
  for (const bool healthy_healthz : {false, true}) {
    FailingRemote failing(503, healthy_healthz);
    for (const int retries : {0, 1}) {
      CAPTURE(healthy_healthz);
      CAPTURE(retries);
      const auto run =
          Sandbox{}.run({"--base-url", failing.url(), "--retries", std::to_string(retries), "bars",
                         "600519.SH", "2024-06-14", "2024-06-21"});
      INFO(describe(run));
      CHECK(run.status != 0);
      CHECK(run.out == "");
      CHECK(run.err.rfind("ashare: error: ", 0) == 0);
      CHECK(split_lines(run.err).size() == 1);
      // Every request that failed was sent 1 + retries times, and nothing was asked after it.
      const auto failed = failing.take_failed();
      CHECK(failed.size() == 1);
      for (const auto& [target, count] : failed) {
        CAPTURE(target);
        CHECK(count == 1 + retries);
      }
    }
  }
}

// remote/calls.hpp: remote::Unreachable, exit status 3, when the remote kept failing with 5xx
// after the retries, whichever request failed.
TEST_CASE("cli query: a remote that keeps failing with 5xx is exit status 3") {
  for (const bool healthy_healthz : {false, true}) {
    CAPTURE(healthy_healthz);
    FailingRemote failing(503, healthy_healthz);
    const auto run = Sandbox{}.run({"--base-url", failing.url(), "--retries", "0", "bars",
                                    "600519.SH", "2024-06-14", "2024-06-21"});
    INFO(describe(run));
    CHECK(run.status == 3);
  }
}

TEST_CASE("cli query: --timeout bounds a remote that never answers") {
  // A listening socket that never accepts: the connection completes in the backlog, no answer.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(fd, 8) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port));
  const auto start = Clock::now();
  const auto run = Sandbox{}.run({"--base-url", url, "--retries", "0", "--timeout", "1", "bars",
                                  "600519.SH", "2024-06-14", "2024-06-21"});
  const auto elapsed = Clock::now() - start;
  ::close(fd);
  INFO(describe(run));
  CHECK(run.status == 3);
  CHECK(run.err.rfind("ashare: error: cannot reach " + url, 0) == 0);
  // It ended by itself, not killed by the run's limit, and not before its timeout (which a slow
  // machine cannot make earlier). How long after it is bench/serve_timings.py's figure.
  CHECK_FALSE(run.timed_out);
  CHECK(elapsed >= 900ms);
}

// A 402 on a later page is refused credits like one on the first page.
TEST_CASE("cli query: credits running out while paging is exit status 4") {
  // A metered Free key with 1 credit: the first page (500 bars) costs it, the second is refused.
  const auto key = query_world().store.create_key("free", 1, "one-credit");
  const auto run =
      remote({"bars", "609001.SH", "2023-10-23", "2025-10-23", "--format", "csv"}, key.plaintext);
  INFO(describe(run));
  CHECK(run.status == 4);
  CHECK(run.err.rfind("ashare: error: INSUFFICIENT_CREDITS: ", 0) == 0);
}

namespace bb {

// Issue 5: with an empty store and no remote, every query command says how to get data instead
// of a bare "unknown symbol".
TEST_CASE("cli query: an empty store says to import data or set a base URL") {
  TestStore store;
  const std::vector<std::vector<std::string>> commands{
    {"bars", "600519.SH"},
    {"bars", "600519.SH", "2024-01-01", "2024-02-01"},
    {"bars", "600519.SH,600036.SH", "2024-01-01", "2024-02-01"},
    {"ema", "600519.SH"},
    {"rsi", "600519.SH,600036.SH"},
    {"sma", "600519.SH", "--at", "2024-06-19"},
  };
  for (const auto& command : commands) {
    CAPTURE(command.front());
    CAPTURE(command[1]);
    const auto result = store.cli(command);
    CHECK(result.status == 1);
    CHECK(result.err.find("ashare: error: no data in " + store.data_locator()
                          + ": import some first (ashare import FILE..., or scripts/load-sample.sh "
                            "of the source tree for the bundled sample) or set a base URL")
          != std::string::npos);
    CHECK(result.err.find("INVALID_SYMBOL") == std::string::npos);
  }
}

} // namespace bb
