// `ashare fetch tdx` against the stand-in TDX quote server and a stand-in SZSE monthList (issue
// 33, D18, D19): a first run stores the real rows, the factor steps agree with Tushare's real
// adj_factor on the same days, a host that fails is left for the next, a garbage bar is named with
// host, code and day, and a fetch killed with -9 resumes with the symbol it had not finished; and
// `ashare verify`: stores filled from either source agree, a source that differs is listed.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"
#include "tdx_standin.hpp"
#include "tushare_standin.hpp"

#include <doctest/doctest.h>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

using namespace bb;
using namespace std::chrono_literals;

namespace {

// SZSE's monthList on 127.0.0.1, answering GET /monthList?month=YYYY-MM from the recorded rows
// (tests/data/szse_calendar), in the reply's recorded shape; it counts what it was asked.
class SzseStandIn {
public:
  SzseStandIn() {
    std::ifstream in(data_dir() / "szse_calendar" / "se_calendar.csv");
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::stringstream split(line);
      std::string weekday, open, day;
      std::getline(split, weekday, ',');
      std::getline(split, open, ',');
      std::getline(split, day, ',');
      auto& month = m_months[day.substr(0, 7)];
      month += std::string(month.empty() ? "" : ",") + R"({"zrxh":)" + weekday + R"(,"jybz":")" + open
               + R"(","jyrq":")" + day + R"("})";
    }
    m_server.Get("/monthList", [this](const httplib::Request& request, httplib::Response& response) {
      ++asked;
      const auto month = m_months.find(request.get_param_value("month"));
      if (month == m_months.end()) {
        response.status = 404;
        return;
      }
      response.set_content(R"({"data":[)" + month->second + R"(],"nowdate":"2026-11-26"})", "application/json");
    });
    m_port = m_server.bind_to_any_port("127.0.0.1");
    m_thread = std::thread([this] { m_server.listen_after_bind(); });
  }
  ~SzseStandIn() {
    m_server.stop();
    m_thread.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/monthList"; }

  std::atomic<int> asked{0};

private:
  std::map<std::string, std::string> m_months;
  httplib::Server m_server;
  int m_port = 0;
  std::thread m_thread;
};

constexpr const char* k_tdx_march_first = "2024-03-01T16:00:00+08:00";

std::vector<std::string> fetch_env(const std::string& now, const std::string& szse_url) {
  return {"ASHARE_NOW=" + now, "ASHARE_SZSE_URL=" + szse_url};
}

RunResult fetch_tdx(const TestStore& store,
                    const std::string& hosts,
                    const std::vector<std::string>& args,
                    const std::string& now = k_tdx_march_first,
                    const std::string& szse_url = "http://127.0.0.1:1/monthList") {
  std::vector<std::string> argv{"--timeout", "5", "fetch", "tdx", "--pace", "0", "--hosts", hosts};
  argv.insert(argv.end(), args.begin(), args.end());
  return store.cli(argv, k_cli_timeout, fetch_env(now, szse_url));
}

// The close of each row of the stand-in's Tushare file for `symbol` dated in [from, to] (YYYYMMDD),
// by ISO date, with open, high and low: what a TDX server sends in 1/1000 CNY.
std::map<std::string, std::vector<double>> real_prices(const std::string& symbol, const std::string& from,
                                                       const std::string& to) {
  std::ifstream in(data_dir() / "tdx_standin" / (symbol + ".csv"));
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::vector<double>> out;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, ',');) {
      fields.push_back(field);
    }
    if (fields[1] >= from && fields[1] <= to) {
      const auto day = fields[1].substr(0, 4) + "-" + fields[1].substr(4, 2) + "-" + fields[1].substr(6, 2);
      out[day] = {std::stod(fields[2]), std::stod(fields[3]), std::stod(fields[4]), std::stod(fields[5])};
    }
  }
  return out;
}

// The number of stored bars of `symbol` (0 also when the store has none at all yet).
std::size_t count_bars(const TestStore& store, const std::string& symbol) {
  const auto run = store.cli({"bars", symbol, "2024-01-02", "2024-03-01", "--format", "csv", "--raw"});
  return run.status == 0 ? read_csv_text(run.out).size() : 0;
}

std::vector<CsvBar> stored(const TestStore& store, const std::string& symbol, const std::string& from,
                           const std::string& to) {
  const auto run = store.cli({"bars", symbol, from, to, "--format", "csv", "--raw", "--limit", "5000"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  return read_csv_text(run.out);
}

} // namespace

TEST_CASE("fetch tdx: a first run stores the A-shares listed, and refreshes the calendar from SZSE") {
  TdxStandIn tdx;
  SzseStandIn szse;
  TestStore store;
  const auto run =
      fetch_tdx(store, tdx.host(), {"--from", "2024-01-02"}, k_tdx_march_first, szse.url());
  REQUIRE_MESSAGE(run.status == 0, run.err);
  // 38 open days; 000001.SZ, 600000.SH (no bars then) and 600519.SH, the funds 510300.SH and
  // 169999.SZ (none then) and D20's 8 indices (none then; D20), not the index 000010.SH no one
  // named, TDX's sector index, the B share or the REIT.
  CHECK(run.out.find("fetched 38 days (2024-01-02..2024-03-01), 114 bars, 13 symbols") != std::string::npos);
  CHECK(run.out.find("ledger through 2024-03-01") != std::string::npos);
  CHECK(szse.asked >= 2); // a month back from --from through this month
  CHECK(run.err.find("not refreshed") == std::string::npos);
  const auto symbols = store.cli({"symbols", "--format", "csv"});
  CHECK(symbols.out.find("600519.SH") != std::string::npos);
  CHECK(symbols.out.find("880023") == std::string::npos);
  CHECK(symbols.out.find("200002") == std::string::npos);
  // The real rows: prices to the last digit, volume and turnover to float32's 7 digits (D18).
  const auto bars = stored(store, "600519.SH", "2024-01-02", "2024-03-01");
  REQUIRE(bars.size() == 38);
  const auto real = real_prices("600519.SH", "20240102", "20240301");
  REQUIRE(real.size() == 38);
  for (const auto& bar : bars) {
    INFO(bar.date);
    REQUIRE(real.count(bar.date) == 1);
    const auto& want = real.at(bar.date);
    CHECK(bar.open == want[0]);
    CHECK(bar.high == want[1]);
    CHECK(bar.low == want[2]);
    CHECK(bar.close == want[3]);
  }
  // D19: TDX lists no delisted codes, and info says what that means.
  const auto info = store.cli({"info"}, k_cli_timeout, {"ASHARE_NOW=2024-03-01T18:00:00+08:00"});
  CHECK(info.out.find("ledger tdx: whole market through 2024-03-01 (38 days), 0 open days behind") != std::string::npos);
  CHECK(info.out.find("survivorship: biased (fed by TDX alone") != std::string::npos);
  const auto again = fetch_tdx(store, tdx.host(), {}, "2024-03-01T18:00:00+08:00");
  CHECK(again.status == 0);
  CHECK(again.out == "up to date; ledger through 2024-03-01\n");
  CHECK(again.err.find("the calendar was not refreshed from SZSE") != std::string::npos); // a warning
}

TEST_CASE("fetch tdx: factor steps equal the Tushare chain's on the same days") {
  // 600519.SH went ex-dividend on 2024-06-19 and 2024-12-20: TDX's steps come from its category-1
  // events and the pre_close they give; Tushare's real adj_factor (4 decimals) over 2024 is in
  // tests/data/tdx_standin/adj_factor_600519_2024.csv. (The Tushare stand-in's own adj_factor is
  // derived and rounded to 3 decimals, too coarse for this.)
  TdxStandIn tdx;
  TestStore store;
  const auto run = fetch_tdx(store, tdx.host(), {"--from", "2024-01-02", "600519.SH"}, "2024-12-31T16:00:00+08:00");
  REQUIRE_MESSAGE(run.status == 0, run.err);
  const auto bars = stored(store, "600519.SH", "2024-01-02", "2024-12-31");
  std::map<std::string, double> adj;
  std::ifstream in(data_dir() / "tdx_standin" / "adj_factor_600519_2024.csv");
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const auto day = line.substr(10, 8);
    adj[day.substr(0, 4) + "-" + day.substr(4, 2) + "-" + day.substr(6, 2)] = std::stod(line.substr(19));
  }
  REQUIRE(bars.size() == 242);
  REQUIRE(adj.size() == 242);
  std::vector<std::string> stepped;
  for (std::size_t i = 1; i < bars.size(); ++i) {
    INFO(bars[i].date);
    const double step_tdx = *bars[i].factor / *bars[i - 1].factor;
    const double step_tushare = adj.at(bars[i].date) / adj.at(bars[i - 1].date);
    // Tushare's 4 decimals carry noise between events (8.0204, 8.0205, 8.02 on 2024-06-24..26):
    // a move under 1e-4 is no step. Issue 33: steps agree when close[t-1] / step agrees to
    // 0.005 CNY.
    if (std::abs(step_tushare - 1) < 1e-4) {
      CHECK(step_tdx == 1);
      continue;
    }
    CHECK(std::abs(bars[i - 1].close / step_tdx - bars[i - 1].close / step_tushare) <= 0.005);
    stepped.push_back(bars[i].date);
  }
  CHECK(stepped == std::vector<std::string>{"2024-06-19", "2024-12-20"});
}

TEST_CASE("fetch tdx: a host that refuses is left for the next; every host failing is exit 3") {
  TdxStandIn tdx;
  TestStore store;
  const auto run = fetch_tdx(store, "127.0.0.1:1," + tdx.host(), {"--from", "2024-02-26"});
  CHECK_MESSAGE(run.status == 0, run.err);
  CHECK(stored(store, "600519.SH", "2024-02-26", "2024-03-01").size() == 5);

  TdxStandIn hanging({"--fault", "hang"});
  TestStore other;
  const auto failed =
      other.cli({"--timeout", "1", "--retries", "1", "fetch", "tdx", "--pace", "0", "--hosts",
                 hanging.host() + ",127.0.0.1:1", "--from", "2024-02-26"},
                k_cli_timeout, fetch_env(k_tdx_march_first, "http://127.0.0.1:1/monthList"));
  CHECK(failed.status == 3);
  CHECK(failed.err.find("every TDX host failed") != std::string::npos);
}

TEST_CASE("fetch tdx: a garbage bar is refused naming host, code and day; --skip-invalid leaves it missing") {
  // The stand-in spoils the newest bar it has: 2024-12-31's.
  TdxStandIn tdx({"--fault", "garbage:600519"});
  TestStore store;
  const std::string now = "2024-12-31T16:00:00+08:00";
  const auto run = fetch_tdx(store, tdx.host(), {"--from", "2024-12-23"}, now);
  CHECK(run.status == 1);
  CHECK(run.err.find("tdx (" + tdx.host() + "): 600519.SH on 2024-12-31: volume: volume 5.9e-39 is not a whole "
                     "number of shares") != std::string::npos);
  CHECK(count_bars(store, "600519.SH") == 0);
  CHECK(stored(store, "000001.SZ", "2024-12-23", "2024-12-31").size() == 7); // the symbols before it stay

  const auto skipped = fetch_tdx(store, tdx.host(), {"--from", "2024-12-23", "--skip-invalid"}, now);
  CHECK_MESSAGE(skipped.status == 0, skipped.err);
  CHECK(skipped.err.find("(left out, the day's bar stays missing)") != std::string::npos);
  const auto kept = stored(store, "600519.SH", "2024-12-23", "2024-12-31");
  CHECK(kept.size() == 6);
  CHECK(kept.back().date == "2024-12-30");
}

TEST_CASE("fetch tdx: kill -9 mid-fetch keeps whole symbols, and the next run resumes with the next") {
  TestStore store;
  {
    TdxStandIn hanging({"--fault", "hang:600519"}); // the 12 symbols before it answer first
    std::vector<std::string> argv{ashare_bin()};
    for (const auto& arg : store.store_args()) {
      argv.push_back(arg);
    }
    for (const auto& arg : {"--timeout", "60", "fetch", "tdx", "--pace", "0", "--hosts"}) {
      argv.push_back(arg);
    }
    argv.push_back(hanging.host());
    argv.push_back("--from");
    argv.push_back("2024-01-02");
    auto env = fetch_env(k_tdx_march_first, "http://127.0.0.1:1/monthList");
    env.push_back("HOME=" + store.dir().string());
    Process first(argv, env);
    // The fetch is inside 600519.SH's call, asked while 600000.SH's answer (no bars in the span)
    // was written; the kill lands once that is committed: the ledger then holds the 38 days of
    // each of the 12 symbols before it (D20's indices and the funds among them); `info` counts
    // the 4 stocks' and funds' as staged, the indices' being their own ledger rows (D20).
    REQUIRE(hanging.wait_for_line("hanging 600519", k_patience));
    REQUIRE(poll_until([&] {
      return store.cli({"info"}).out.find(" 152 (day, symbol) rows ") != std::string::npos;
    }));
    first.send_signal(SIGKILL);
    CHECK(first.wait_for_exit(10s) == 128 + SIGKILL);
  }
  CHECK(stored(store, "000001.SZ", "2024-01-02", "2024-03-01").size() == 38); // a whole symbol
  CHECK(count_bars(store, "600519.SH") == 0);
  TdxStandIn tdx;
  const auto resumed = fetch_tdx(store, tdx.host(), {});
  CHECK_MESSAGE(resumed.status == 0, resumed.err);
  CHECK(resumed.out.find("fetched 38 days (2024-01-02..2024-03-01), 38 bars, 1 symbol,") != std::string::npos);
  TestStore clean;
  REQUIRE(fetch_tdx(clean, tdx.host(), {"--from", "2024-01-02"}).status == 0);
  for (const auto* symbol : {"000001.SZ", "600519.SH"}) {
    const auto left = stored(store, symbol, "2024-01-02", "2024-03-01");
    const auto right = stored(clean, symbol, "2024-01-02", "2024-03-01");
    REQUIRE(left.size() == right.size());
    for (std::size_t i = 0; i < left.size(); ++i) {
      CHECK(left[i].close == right[i].close);
      CHECK(left[i].factor == right[i].factor);
      CHECK(left[i].volume == right[i].volume);
    }
  }
}

TEST_CASE("fetch tdx: --dry-run sends nothing; remote mode is refused") {
  TestStore store;
  const auto plan = fetch_tdx(store, "127.0.0.1:1", {"--from", "2024-02-26", "--dry-run", "600519.SH"});
  CHECK_MESSAGE(plan.status == 0, plan.err);
  CHECK(plan.out.find("plan: 5 open days 2024-02-26..2024-03-01") != std::string::npos);
  CHECK(plan.out.find("calls to TDX") != std::string::npos);
  const auto remote = store.cli({"--base-url", "http://127.0.0.1:1", "fetch", "tdx"});
  CHECK(remote.status == 2);
}

namespace {

// Fetch 600519.SH and 000001.SZ over 2024 from the Tushare stand-in into `store`.
RunResult fetch_tushare_2024(const TestStore& store, const TushareStandIn& tushare) {
  return store.cli({"fetch", "tushare", "--pace", "0", "--from", "2024-01-02", "600519.SH", "000001.SZ"}, k_cli_timeout,
                   {"ASHARE_TUSHARE_TOKEN=" + std::string(TushareStandIn::k_token), "ASHARE_TUSHARE_URL=" + tushare.url(),
                    "ASHARE_NOW=2024-12-31T16:00:00+08:00"});
}

RunResult verify(const TestStore& store, const std::vector<std::string>& args, const TushareStandIn& tushare) {
  std::vector<std::string> argv{"--timeout", "5", "verify", "--pace", "0", "--from", "2024-01-02", "--to", "2024-12-31"};
  argv.insert(argv.end(), args.begin(), args.end());
  return store.cli(argv, k_cli_timeout,
                   {"ASHARE_TUSHARE_TOKEN=" + std::string(TushareStandIn::k_token), "ASHARE_TUSHARE_URL=" + tushare.url(),
                    "ASHARE_NOW=2024-12-31T18:00:00+08:00"});
}

} // namespace

TEST_CASE("verify: stores filled by fetch tdx and by fetch tushare from the same real days agree") {
  TdxStandIn tdx;
  TushareStandIn tushare;
  TestStore from_tdx;
  TestStore from_tushare;
  REQUIRE(fetch_tdx(from_tdx, tdx.host(), {"--from", "2024-01-02", "600519.SH", "000001.SZ"},
                    "2024-12-31T16:00:00+08:00").status == 0);
  REQUIRE(fetch_tushare_2024(from_tushare, tushare).status == 0);
  const std::vector<std::string> symbols{"600519.SH", "000001.SZ"};
  for (const auto& [store, against] : {std::pair{&from_tdx, "tushare"}, std::pair{&from_tushare, "tdx"},
                                       std::pair{&from_tdx, "tdx"}, std::pair{&from_tushare, "tushare"}}) {
    INFO(against);
    std::vector<std::string> args{"--against", against, "--format", "csv"};
    if (std::string(against) == "tdx") { // --hosts is tdx's only (D18)
      args.insert(args.end(), {"--hosts", tdx.host()});
    }
    args.insert(args.end(), symbols.begin(), symbols.end());
    const auto run = verify(*store, args, tushare);
    CHECK_MESSAGE(run.status == 0, run.err);
    CHECK(run.out == "symbol,date,field,stored,source\n");
    CHECK(run.err.find(": 2 symbols, 484 bars: they agree") != std::string::npos);
  }
}

TEST_CASE("verify: a source that differs is listed per symbol and day, exit 1") {
  // A TDX whose 600519.SH closed 0.10 higher on 2024-06-18 and that lacks 000001.SZ's dividends.
  TestStore store;
  const auto data = store.dir() / "tdx_data";
  std::filesystem::create_directories(data);
  const auto original = data_dir() / "tdx_standin";
  for (const auto* name : {"000001.SZ.csv", "600000.SH.csv", "xdxr_600519.csv"}) {
    std::filesystem::copy_file(original / name, data / name);
  }
  {
    std::ifstream in(original / "600519.SH.csv");
    std::ofstream out(data / "600519.SH.csv");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("600519.SH,20240618,", 0) == 0) {
        line = "600519.SH,20240618,1530.89,1554.54,1516.68,1521.6,1541.5,-19.9,-1.2909,41258.25,6317590.943";
      }
      out << line << "\n";
    }
  }
  TdxStandIn altered({"--data", data.string()});
  TushareStandIn tushare;
  REQUIRE(fetch_tdx(store, altered.host(), {"--from", "2024-01-02", "600519.SH", "000001.SZ"},
                    "2024-12-31T16:00:00+08:00").status == 0);
  const auto run = verify(store, {"--against", "tushare", "--format", "csv", "600519.SH", "000001.SZ"}, tushare);
  CHECK(run.status == 1);
  CHECK(run.out == "symbol,date,field,stored,source\n"
                   "000001.SZ,2024-06-14,factor_step,1,1.0710944808231992\n"
                   "000001.SZ,2024-10-10,factor_step,1,1.022707423580786\n"
                   "600519.SH,2024-06-18,close,1521.6,1521.5\n");
  CHECK(run.err.find("3 differences (close 1, factor_step 2)") != std::string::npos);

  const auto verified = verify(store, {"--against", "tushare", "--format", "json", "600519.SH"}, tushare);
  CHECK(verified.status == 1);
  const auto body = nlohmann::json::parse(verified.out);
  CHECK(body["summary"]["agree"] == false);
  CHECK(body["summary"]["provider"] == "tushare-pro");
  CHECK(body["summary"]["counts"]["close"] == 1);
  REQUIRE(body["differences"].size() == 1);
  CHECK(body["differences"][0] == nlohmann::json{{"symbol", "600519.SH"}, {"date", "2024-06-18"}, {"field", "close"},
                                                 {"stored", "1521.6"}, {"source", "1521.5"}});

  // Against its own provider a symbol compares exactly: the altered TDX agrees with itself.
  const auto own = verify(store, {"--against", "tdx", "--hosts", altered.host(), "600519.SH", "000001.SZ"}, tushare);
  CHECK_MESSAGE(own.status == 0, own.err);
}

TEST_CASE("verify: a source that keeps failing is exit 3; remote mode and no --against are usage errors") {
  TdxStandIn tdx;
  TestStore store;
  REQUIRE(fetch_tdx(store, tdx.host(), {"--from", "2024-02-26"}).status == 0);
  const auto failing = store.cli({"--timeout", "1", "--retries", "1", "verify", "--against", "tdx",
                                  "--hosts", "127.0.0.1:1", "--pace", "0"},
                                 k_cli_timeout, {"ASHARE_NOW=" + std::string(k_tdx_march_first)});
  CHECK(failing.status == 3);
  CHECK(failing.err.find("every TDX host failed") != std::string::npos);
  // The default window: the last 20 ledger days (here the 5 there are).
  const auto window =
      store.cli({"verify", "--against", "tdx", "--hosts", tdx.host(), "--pace", "0"}, k_cli_timeout,
                {"ASHARE_NOW=" + std::string(k_tdx_march_first)});
  CHECK_MESSAGE(window.status == 0, window.err);
  // The stocks and the funds the stand-in lists (D20), 510300.SH with bars.
  CHECK(window.err.find("verify against tdx 2024-02-26..2024-03-01: 5 symbols, 15 bars: they agree")
        != std::string::npos);
  CHECK(store.cli({"--base-url", "http://127.0.0.1:1", "verify", "--against", "tdx"}).status == 2);
  CHECK(store.cli({"verify"}).status == 2);
  CHECK(store.cli({"verify", "--against", "sina"}).status == 2);
}

namespace {

// A port on 127.0.0.1 that listens and never accepts: a client that connected to it, even one
// that has gone since, waits in its backlog, so contacted() tells whether anyone came.
class SilentPort {
public:
  SilentPort() {
    m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(m_fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(m_fd, 8) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    m_port = ntohs(address.sin_port);
  }
  ~SilentPort() { ::close(m_fd); }
  SilentPort(const SilentPort&) = delete;
  SilentPort& operator=(const SilentPort&) = delete;

  std::string host() const { return "127.0.0.1:" + std::to_string(m_port); }
  bool contacted() const {
    pollfd pending{m_fd, POLLIN, 0};
    return ::poll(&pending, 1, 0) == 1;
  }

private:
  int m_fd = -1;
  int m_port = 0;
};

} // namespace

TEST_CASE("verify: an option of the other provider is a usage error, and nothing is asked (D18)") {
  TushareStandIn tushare;
  SilentPort tdx;
  TestStore store;
  store.import({data_dir() / "tushare_standin" / "daily" / "600519.SH.csv"}, {"--format", "tushare"});
  const std::vector<std::string> env{"ASHARE_TUSHARE_TOKEN=" + std::string(TushareStandIn::k_token),
                                     "ASHARE_TUSHARE_URL=" + tushare.url(), "ASHARE_TDX_HOSTS=" + tdx.host(),
                                     "ASHARE_NOW=2024-12-31T18:00:00+08:00"};
  const auto token_file = store.dir() / "token";
  std::ofstream(token_file) << TushareStandIn::k_token << "\n";
  std::filesystem::permissions(token_file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--against", "tdx", "--source-url", tushare.url()}, "--source-url does not apply to --against tdx (it is tushare's)"},
      {{"--against", "tdx", "--token-file", token_file.string()}, "--token-file does not apply to --against tdx (it is tushare's)"},
      {{"--against", "tushare", "--hosts", tdx.host()}, "--hosts does not apply to --against tushare (it is tdx's)"},
  };
  for (const auto& c : cases) {
    INFO(c.message);
    std::vector<std::string> argv{"--timeout", "1", "--retries", "1", "verify", "--pace", "0",
                                  "--from", "2024-01-02", "--to", "2024-01-31", "600519.SH"};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const auto run = store.cli(argv, k_cli_timeout, env);
    CHECK(run.status == 2);
    CHECK(run.err == "ashare: error: " + c.message + "\n");
    CHECK(run.out.empty());
    CHECK_FALSE(tdx.contacted());
    CHECK(tushare.log().empty());
  }
}

TEST_CASE("fetch tdx --repair: a bar the servers lacked at the first fetch is asked again") {
  // A TDX that lacked 600519.SH's 2024-02-27 at first, then the whole stand-in.
  TestStore store;
  const auto data = store.dir() / "tdx_data";
  std::filesystem::create_directories(data);
  const auto original = data_dir() / "tdx_standin";
  for (const auto* name : {"000001.SZ.csv", "600000.SH.csv", "xdxr_600519.csv", "xdxr_000001.csv"}) {
    std::filesystem::copy_file(original / name, data / name);
  }
  {
    std::ifstream in(original / "600519.SH.csv");
    std::ofstream out(data / "600519.SH.csv");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("600519.SH,20240227,", 0) != 0) {
        out << line << "\n";
      }
    }
  }
  {
    TdxStandIn lacking({"--data", data.string()});
    REQUIRE(fetch_tdx(store, lacking.host(), {"--from", "2024-02-19"}).status == 0);
  }
  const auto gaps = store.cli({"gaps", "600519.SH", "--format", "csv"});
  CHECK(gaps.status == 1);
  CHECK(gaps.out.find("600519.SH,2024-02-27,missing") != std::string::npos);
  TdxStandIn tdx;
  const auto repaired = fetch_tdx(store, tdx.host(), {"--repair"});
  CHECK_MESSAGE(repaired.status == 0, repaired.err);
  CHECK_MESSAGE(repaired.out.find("fetched 1 day (2024-02-27), 1 bars, 0 absent") == std::string::npos, repaired.out);
  CHECK_MESSAGE(repaired.out.find("fetched 1 day (2024-02-27), 1 bars, 1 symbol,") != std::string::npos, repaired.out);
  const auto after = store.cli({"gaps", "600519.SH", "--format", "csv"});
  CHECK_MESSAGE(after.status == 0, after.out);
  CHECK(stored(store, "600519.SH", "2024-02-27", "2024-02-27").size() == 1);
}
