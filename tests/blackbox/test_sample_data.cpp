// Issue 5 §1: README's first command loads data/sample/ (scripts/load-sample.sh, the step
// quickstart.sh runs) and prints `ashare bars 600519.SH 2024-01-01 2024-06-30`. This runs that
// step on a fresh store and checks the printed bars against the Tushare source file, converting
// its units by hand here (moving the decimal point in the text). Issue 44 added an index
// (000300.SH, Tushare index_daily), a fund (510300.SH, TDX's text export) and CSI 300's
// announced membership: checked here against their files in the same way.
#include "fixtures.hpp"
#include "process.hpp"
#include "server_process.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace bb {
namespace {

std::filesystem::path project_root() {
  return std::filesystem::weakly_canonical(data_dir() / ".." / "..");
}

// `decimal` (non-negative, e.g. "39354.45") times 10^`places`, as integer text ("3935445").
std::string shift_point(const std::string& decimal, std::size_t places) {
  const auto dot = decimal.find('.');
  std::string whole = decimal.substr(0, dot);
  std::string fraction = dot == std::string::npos ? "" : decimal.substr(dot + 1);
  fraction.resize(std::max(fraction.size(), places), '0');
  std::string digits = whole + fraction.substr(0, places);
  REQUIRE_MESSAGE(fraction.find_first_not_of('0', places) == std::string::npos,
                  decimal << " is not whole after shifting");
  const auto first = digits.find_first_not_of('0');
  return first == std::string::npos ? "0" : digits.substr(first);
}

// `decimal` (non-negative) times 10^`places`, moving the point in the text: "7412868.94", 2 ->
// "741286894", "4431977.418", 2 -> "443197741.8". std::stod of the result is the double nearest
// the exact product, as ashare's conversion must give (D12).
std::string move_point(const std::string& decimal, std::size_t places) {
  const auto dot = decimal.find('.');
  std::string whole = decimal.substr(0, dot);
  std::string fraction = dot == std::string::npos ? "" : decimal.substr(dot + 1);
  fraction.resize(std::max(fraction.size(), places), '0');
  return whole + fraction.substr(0, places) + "." + fraction.substr(places) + "0";
}

// Rows of a CSV with a header, as maps from column name to text.
std::vector<std::map<std::string, std::string>> read_rows(const std::string& text) {
  std::stringstream in(text);
  std::string line;
  std::getline(in, line);
  const auto header = csv_fields(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    const auto fields = csv_fields(line);
    REQUIRE(fields.size() == header.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size(); ++i) {
      row[header[i]] = fields[i];
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

} // namespace

TEST_CASE("sample data: the quickstart's loading step, checked against the source file") {
  TestStore store;
  const auto load = run_process({"/bin/bash", (project_root() / "scripts" / "load-sample.sh").string(),
                                 ashare_bin()},
                                k_cli_timeout, {"ASHARE_DB=" + store.data_locator()});
  INFO(load.err);
  REQUIRE(load.status == 0);
  CHECK(words(load.out).size() > 0);

  SUBCASE("eleven stocks on all three exchanges, an index and a fund, each with its source") {
    const auto symbols = read_rows(store.cli({"symbols", "--format", "csv"}).out);
    CHECK(symbols.size() == 13);
    std::set<std::string> exchanges;
    std::map<std::string, std::string> kinds;
    for (const auto& row : symbols) {
      const auto& symbol = row.at("symbol");
      exchanges.insert(symbol.substr(7));
      kinds[symbol] = row.at("kind");
      CAPTURE(symbol);
      CHECK(row.at("source")
            == (symbol == "430047.BJ" ? "akshare" : symbol == "510300.SH" ? "tdx-text" : "tushare"));
    }
    CHECK(exchanges == std::set<std::string>{"SH", "SZ", "BJ"});
    CHECK(kinds.at("000300.SH") == "index");
    CHECK(kinds.at("510300.SH") == "fund");
    CHECK(kinds.at("600519.SH") == "stock");
    CHECK(std::count_if(kinds.begin(), kinds.end(), [](const auto& kind) {
            return kind.second == "stock";
          }) == 11);
  }

  SUBCASE("000300.SH equals the index_daily file: lots x 100, thousand CNY x 1000, factor 1") {
    const auto source = read_rows(read_text(project_root() / "data/sample/tushare/000300.SH.csv"));
    const auto bars = read_rows(
      store.cli({"bars", "000300.SH", "2020-01-01", "2022-12-31", "--raw", "--format", "csv",
                 "--limit", "5000"})
        .out);
    REQUIRE(source.size() == 728);
    REQUIRE(bars.size() == source.size());
    for (std::size_t i = 0; i < bars.size(); ++i) {
      const auto& bar = bars[i];
      const auto& src = source[i];
      CAPTURE(src.at("trade_date"));
      REQUIRE(bar.at("trade_date") == src.at("trade_date"));
      for (const char* price : {"open", "high", "low", "close"}) {
        CHECK(std::stod(bar.at(price)) == std::stod(src.at(price)));
      }
      CHECK(std::stod(bar.at("volume")) == std::stod(move_point(src.at("vol"), 2)));
      CHECK(std::stod(bar.at("turnover")) == std::stod(move_point(src.at("amount"), 3)));
      CHECK(bar.at("factor") == "1");
    }
  }

  SUBCASE("510300.SH equals TDX's raw export: prices to 0.001, volume in shares") {
    std::stringstream export_rows(read_text(project_root() / "data/sample/tdx/SH#510300.txt"));
    std::map<std::string, std::vector<std::string>> by_date;
    std::string line;
    while (std::getline(export_rows, line)) {
      if (line.size() > 10 && line[4] == '/') { // 2020/01/02,4.120,4.174,...
        line.erase(line.find_last_not_of('\r') + 1);
        auto fields = csv_fields(line);
        by_date[fields[0].substr(0, 4) + "-" + fields[0].substr(5, 2) + "-" + fields[0].substr(8, 2)] =
          fields;
      }
    }
    REQUIRE(by_date.size() == 1151);
    const auto bars = read_rows(
      store.cli({"bars", "510300.SH", "2020-01-01", "2024-09-30", "--raw", "--format", "csv",
                 "--limit", "5000"})
        .out);
    REQUIRE(bars.size() == by_date.size());
    for (const auto& bar : bars) {
      const auto& src = by_date.at(bar.at("trade_date"));
      CAPTURE(bar.at("trade_date"));
      CHECK(std::stod(bar.at("open")) == std::stod(src[1]));
      CHECK(std::stod(bar.at("close")) == std::stod(src[4]));
      CHECK(bar.at("volume") == src[5]);
    }
    CHECK(by_date.at("2024-01-18")[4] == "3.268"); // an ex-date: the raw close, not 32.68
  }

  SUBCASE("CSI 300's members on 2023-06-30: the announcements' 300") {
    const auto run = store.cli({"members", "000300.SH", "--on", "2023-06-30", "--format", "csv"});
    INFO(run.err);
    REQUIRE(run.status == 0);
    const auto members = read_rows(run.out);
    CHECK(members.size() == 300);
    std::set<std::string> symbols;
    for (const auto& row : members) {
      symbols.insert(row.at("symbol"));
      CHECK(row.at("source") == "import");
    }
    CHECK(symbols.size() == 300);
    CHECK(symbols.count("600519.SH") == 1);
  }

  SUBCASE("raw bars of 600519.SH equal the Tushare file, units converted (D12)") {
    const auto source = read_rows(read_text(project_root() / "data/sample/tushare/600519.SH.csv"));
    std::map<std::string, std::map<std::string, std::string>> by_date;
    for (const auto& row : source) {
      const auto& d = row.at("trade_date");
      if (d >= "20240101" && d <= "20240630") {
        by_date[d.substr(0, 4) + "-" + d.substr(4, 2) + "-" + d.substr(6, 2)] = row;
      }
    }
    const auto run =
      store.cli({"bars", "600519.SH", "2024-01-01", "2024-06-30", "--raw", "--format", "csv"});
    REQUIRE(run.status == 0);
    const auto bars = read_rows(run.out);
    REQUIRE(bars.size() == by_date.size());
    REQUIRE(bars.size() == 117);
    for (const auto& bar : bars) {
      CAPTURE(bar.at("trade_date"));
      const auto& src = by_date.at(bar.at("trade_date"));
      for (const auto* price : {"open", "high", "low", "close"}) {
        CHECK(std::stod(bar.at(price)) == std::stod(src.at(price)));
      }
      CHECK(bar.at("volume") == shift_point(src.at("vol"), 2));      // lots -> shares
      CHECK(bar.at("turnover") == shift_point(src.at("amount"), 3)); // thousand CNY -> CNY
      CHECK(std::stod(bar.at("change_pct")) == std::stod(src.at("pct_chg")));
    }
    // Two rows by eye: 2024-01-02 and the ex-date 2024-06-19.
    CHECK(bars.front().at("trade_date") == "2024-01-02");
    CHECK(by_date.at("2024-06-19").at("vol") == "41261.53");
    CHECK(bars[109].at("trade_date") == "2024-06-19");
    CHECK(bars[109].at("volume") == "4126153");
    CHECK(bars[109].at("turnover") == "6167728416");
  }

  SUBCASE("forward adjustment visibly differs from raw, stepping on the ex-date 2024-06-19") {
    const auto raw = read_rows(
      store.cli({"bars", "600519.SH", "2024-01-01", "2024-06-30", "--raw", "--format", "csv"}).out);
    const auto adjusted =
      read_rows(store.cli({"bars", "600519.SH", "2024-01-01", "2024-06-30", "--format", "csv"}).out);
    REQUIRE(raw.size() == adjusted.size());
    double before = 0;
    double after = 0;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      const double ratio = std::stod(adjusted[i].at("close")) / std::stod(raw[i].at("close"));
      (raw[i].at("trade_date") < "2024-06-19" ? before : after) = ratio;
    }
    CHECK(before < 0.97); // several dividends lie between these days and the anchor 2024-12-31
    CHECK(before < after);
    CHECK(after < 1.0);
  }

  SUBCASE("the table quickstart prints") {
    const auto run =
      store.cli({"bars", "600519.SH", "2024-01-01", "2024-06-30", "--format", "table"});
    REQUIRE(run.status == 0);
    std::stringstream lines(run.out);
    std::string line;
    std::getline(lines, line); // issue 12: a title, the headers, their units
    CHECK(line == "600519.SH  2024-01-02 .. 2024-06-28  forward-adjusted");
    std::getline(lines, line);
    CHECK(words(line).front() == "DATE");
    std::getline(lines, line);
    CHECK(words(line).front() == "CNY");
    std::vector<std::string> dates;
    while (std::getline(lines, line)) {
      dates.push_back(words(line).front());
    }
    REQUIRE(dates.size() == 117);
    CHECK(dates.front() == "2024-01-02");
    CHECK(dates.back() == "2024-06-28");
  }
}

} // namespace bb
