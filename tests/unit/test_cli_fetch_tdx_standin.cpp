// The TDX stand-in (tests/standin/tdx_standin) through ashare's own connector and client: its
// bodies are the recorded ones byte for byte, it serves the real rows it was given, zipped when
// large, and each fault it can stage is met by failing over to the next host.
#include "cli/fetch/tdx_connector.hpp"
#include "core/fetch/tdx/bars.hpp"
#include "core/fetch/tdx/client.hpp"
#include "support/build_paths.hpp"
#include "support/test_data.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace ashare;
using namespace ashare::fetch::tdx;
using namespace std::chrono_literals;

namespace {

// A tdx_standin process on a free port, stopped when this goes.
class StandIn {
public:
  explicit StandIn(std::vector<std::string> arguments = {}) {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    m_pid = ::fork();
    REQUIRE(m_pid >= 0);
    if (m_pid == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      ::close(out[0]);
      std::vector<std::string> all{ashare::test::built_tdx_standin(), "--port", "0"};
      all.insert(all.end(), arguments.begin(), arguments.end());
      std::vector<char*> argv;
      for (auto& argument : all) {
        argv.push_back(argument.data());
      }
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    char c = 0;
    while (::read(out[0], &c, 1) == 1 && c != '\n') {
      line += c;
    }
    ::close(out[0]);
    REQUIRE(line.starts_with("listening on 127.0.0.1:"));
    m_host = line.substr(std::string("listening on ").size());
  }
  ~StandIn() {
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
  }
  const std::string& host() const { return m_host; }

private:
  pid_t m_pid = -1;
  std::string m_host;
};

std::vector<std::uint8_t> recorded(const std::string& name) {
  std::ifstream in(test::data_dir() / "tdx_7709" / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The stand-in's rows of `file` (Tushare's daily CSV), oldest first: trade_date and its cells.
std::vector<std::vector<std::string>> rows_of(const std::string& file) {
  std::ifstream in(test::data_dir() / "tdx_standin" / file);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, ',');) {
      cells.push_back(cell);
    }
    rows.push_back(cells);
  }
  std::reverse(rows.begin(), rows.end());
  return rows;
}

} // namespace

TEST_CASE("tdx standin: its bars body is the recorded capture's, byte for byte") {
  StandIn standin;
  cli::TdxConnector connector(2s);
  auto channel = connector.connect(standin.host());
  REQUIRE(channel);
  const auto reply = (*channel)->exchange(security_bars_request(9, Market::sh, "600000", 4, 0, 10));
  REQUIRE(reply);
  CHECK_FALSE(reply->head.zlib);
  CHECK(reply->body == recorded("atst_600000_cat4_20260902-113206.payload.bin"));
}

TEST_CASE("tdx standin: the real rows through the client, zipped pages, events and the list") {
  StandIn standin;
  cli::TdxConnector connector(2s);
  Client client(connector, {{standin.host()}, 1});
  const auto bars = client.daily_bars(Market::sh, "600519", std::nullopt);
  REQUIRE(bars);
  const auto rows = rows_of("600519.SH.csv");
  REQUIRE(bars->size() == rows.size());
  CHECK(client.requests() == 2); // 800, then 412: both bodies over 1 KB, so zlib
  for (std::size_t i = 0; i < rows.size(); i += 97) {
    const auto& bar = (*bars)[i];
    CAPTURE(rows[i][1]);
    CHECK(bar.day.yyyymmdd() == std::stoll(rows[i][1]));
    CHECK(bar.open_mils == std::llround(std::stod(rows[i][2]) * 1000));
    CHECK(bar.close_mils == std::llround(std::stod(rows[i][5]) * 1000));
    CHECK(bar.volume == static_cast<float>(std::stod(rows[i][9]) * 100)); // shares, as float32
  }
  const auto events = client.ex_rights(Market::sh, "600519");
  REQUIRE(events);
  REQUIRE(events->size() == 29);
  CHECK(events->at(26).day.yyyymmdd() == 20241220);
  CHECK(events->at(26).cash == 238.82f);
  const auto listed = client.listed_codes(Market::sh);
  REQUIRE(listed);
  std::vector<std::string> a_shares;
  for (const auto& code : *listed) {
    if (is_a_share(Market::sh, code.code)) {
      a_shares.push_back(code.code);
    }
  }
  CHECK(listed->size() == 7); // and an index asked for, one not, a fund, a sector index, a REIT
  CHECK(a_shares == std::vector<std::string>{"600000", "600519"});
  // Every day's pre_close from TDX's bars and events is the exchange's own (Tushare's column),
  // the ex-dates 2020-06-24 .. 2024-12-20 included.
  const auto file = rows_of_bars("600519.SH", domain::Kind::stock, *bars, *events, std::nullopt, *domain::Date::from_yyyymmdd(20261126));
  CHECK(file.problems.empty());
  REQUIRE(file.rows.size() == rows.size());
  int ex_dates = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    CAPTURE(rows[i][1]);
    REQUIRE(file.rows[i].pre_close);
    CHECK(*file.rows[i].pre_close == std::stod(rows[i][6]));
    ex_dates += *file.rows[i].pre_close != file.rows[i - 1].bar.close ? 1 : 0;
  }
  CHECK(ex_dates == 8); // 600519.SH paid a dividend twice a year from 2022, yearly before
}

TEST_CASE("tdx standin: an index's bars in their layout, a fund's events, through the client (D20)") {
  StandIn standin;
  cli::TdxConnector connector(2s);
  Client client(connector, {{standin.host()}, 1});
  // 000300.SH: Tushare's rows of 2019-2022, two pages, each bar with its 4 more bytes.
  const auto bars = client.daily_bars(Market::sh, "000300", std::nullopt, BarLayout::index);
  REQUIRE(bars);
  REQUIRE(bars->size() == 972);
  CHECK(client.requests() == 2);
  CHECK(bars->front().day.yyyymmdd() == 20190102);
  CHECK(bars->front().close_mils == 2'969'535); // 2969.5353 to 1/1000
  CHECK(bars->front().volume == 68'663'021.0f);   // lots, as float32
  CHECK(bars->back().day.yyyymmdd() == 20221230);
  CHECK(bars->back().up_count + bars->back().down_count == 300);
  // A stock's reader cannot read them: the only host fails.
  CHECK_FALSE(client.daily_bars(Market::sh, "000300", std::nullopt));
  // 510300.SH: the export's 3003 bars and its 12 dividends; 169999.SZ's made-up split.
  const auto etf = client.daily_bars(Market::sh, "510300", std::nullopt);
  REQUIRE(etf);
  CHECK(etf->size() == 3003);
  CHECK(etf->front().close_mils == 2'604);
  CHECK(etf->front().volume == 1'277'518'769.0f); // shares
  const auto dividends = client.ex_rights(Market::sh, "510300");
  REQUIRE(dividends);
  REQUIRE(dividends->size() == 12);
  CHECK(dividends->at(8).day.yyyymmdd() == 20210118);
  CHECK(dividends->at(8).cash == 0.72f);
  const auto split = client.ex_rights(Market::sz, "169999");
  REQUIRE(split);
  REQUIRE(split->size() == 1);
  CHECK(split->front().category == k_unit_split);
  CHECK(split->front().split_ratio() == 3.0f);
}

TEST_CASE("tdx standin: each fault it stages sends the client to the next host") {
  StandIn good;
  for (const auto* fault : {"truncate:600519", "lie:600519", "hang:600519"}) {
    CAPTURE(fault);
    StandIn bad({"--fault", fault});
    cli::TdxConnector connector(500ms);
    Client client(connector, {{bad.host(), good.host()}, 1});
    const auto bars = client.daily_bars(Market::sh, "600519", std::nullopt);
    REQUIRE(bars);
    CHECK(bars->size() == rows_of("600519.SH.csv").size());
    CHECK(client.host() == good.host());
  }
  // A garbage bar reads (it is the server's word), and is then refused by its day, never a row.
  StandIn garbage({"--fault", "garbage:600519"});
  cli::TdxConnector connector(2s);
  Client client(connector, {{garbage.host()}, 1});
  const auto bars = client.daily_bars(Market::sh, "600519", std::nullopt);
  REQUIRE(bars);
  const auto file = rows_of_bars("600519.SH", domain::Kind::stock, *bars, {}, std::nullopt, *domain::Date::from_yyyymmdd(20261126));
  // The stand-in spoils the newest bar of each reply: of both pages.
  REQUIRE(file.problems.size() == 2);
  CHECK(file.problems[1].message.find("2024-12-31: volume") == 0);
  CHECK(file.problems[1].column == "volume");
  CHECK(file.rows.size() == bars->size() - 2);
}
