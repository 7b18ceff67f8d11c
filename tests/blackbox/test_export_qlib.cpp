// `ashare export --format qlib` (issue 15) read back by a reader written here from the format's
// description (microsoft/qlib scripts/dump_bin.py and docs/component/data.rst): calendars/day.txt,
// instruments/all.txt and features/<code>/<field>.day.bin as little-endian float32, the start
// index first, NaN on calendar days without a bar; prices adjusted from the first bar (后复权),
// raw = adjusted / factor. Every value is compared with `ashare bars --raw`; a later --to appends
// and equals a fresh export byte for byte.
#include "fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace bb;

namespace {

namespace fs = std::filesystem;

// Two synthetic symbols: 609010.SH suspended on 2024-01-05 with a factor step on 2024-01-09;
// 900011.SZ listed on 2024-01-04, suspended on 2024-01-08 and 2024-01-09, last traded 2024-01-10.
const char* k_synthetic =
  "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
  "609010.SH,2024-01-02,10.01,10.5,9.9,10.2,123456,1259000.5,0.5,1\n"
  "609010.SH,2024-01-03,10.2,10.3,10.0,10.1,100000,1010000,-0.98,1\n"
  "609010.SH,2024-01-04,10.1,10.6,10.1,10.55,150001,1580000.25,4.4554,1\n"
  "609010.SH,2024-01-08,10.5,10.5,10.3,10.33,90000,930000,-2.0853,1\n"
  "609010.SH,2024-01-09,8.3,8.4,8.2,8.31,80000,665000,0.5566,1.25\n"
  "609010.SH,2024-01-10,8.31,8.6,8.3,8.59,70000,600000,3.3694,1.25\n"
  "609010.SH,2024-01-11,8.6,8.7,8.5,8.52,60000,512000,-0.8149,1.25\n"
  "900011.SZ,2024-01-04,5.05,5.1,5.0,5.08,400000,2030000,0,2\n"
  "900011.SZ,2024-01-05,5.08,5.2,5.05,5.17,410000,2100000,1.7717,2\n"
  "900011.SZ,2024-01-10,5.2,5.3,5.1,5.25,300000,1570000,1.5474,2\n";

// What the reader reads of an export directory.
struct QlibDir {
  std::vector<std::string> calendar;                           // day.txt, in order
  std::vector<std::vector<std::string>> instruments;           // all.txt, split at tabs
  std::map<std::string, std::map<std::string, std::vector<float>>> features; // code -> field -> file
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<float> read_floats(const fs::path& path) {
  const auto bytes = read_file(path);
  REQUIRE(bytes.size() % 4 == 0);
  std::vector<float> out(bytes.size() / 4);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint32_t bits = 0;
    for (int b = 3; b >= 0; --b) { // little-endian whatever the host
      bits = (bits << 8) | static_cast<unsigned char>(bytes[4 * i + static_cast<std::size_t>(b)]);
    }
    out[i] = std::bit_cast<float>(bits);
  }
  return out;
}

QlibDir read_qlib(const fs::path& dir) {
  QlibDir out;
  out.calendar = split_lines(read_file(dir / "calendars" / "day.txt"));
  for (const auto& line : split_lines(read_file(dir / "instruments" / "all.txt"))) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, '\t');) {
      cells.push_back(cell);
    }
    out.instruments.push_back(cells);
  }
  for (const auto& entry : fs::directory_iterator(dir / "features")) {
    for (const auto& file : fs::directory_iterator(entry.path())) {
      const auto name = file.path().filename().string(); // close.day.bin
      REQUIRE(name.size() > 8);
      REQUIRE(name.substr(name.size() - 8) == ".day.bin");
      out.features[entry.path().filename().string()][name.substr(0, name.size() - 8)] =
        read_floats(file.path());
    }
  }
  return out;
}

// Every file under `dir` (relative path -> bytes).
std::map<std::string, std::string> all_files(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) {
      out[fs::relative(entry.path(), dir).string()] = read_file(entry.path());
    }
  }
  return out;
}

// qlib's spelling: "600519.SH" -> "SH600519".
std::string code_of(const std::string& symbol) {
  return symbol.substr(7) + symbol.substr(0, 6);
}

std::string lower(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return text;
}

// `got` is `want` rounded to float32: within `steps` float32 steps (one: the reader does not
// redo the exporter's exact order of operations).
void check_float(float got, double want, double steps = 1) {
  CHECK(std::fabs(static_cast<double>(got) - want) <= std::fabs(want) * 1.2e-7 * steps + 1e-30);
}

class ExportWorld {
public:
  ExportWorld() {
    const auto synthetic = m_store.dir() / "synthetic.csv";
    std::ofstream(synthetic) << k_synthetic;
    m_store.import({fixture("bancob_600519.SH.csv"), fixture("jenny_000001.SZ.csv"), synthetic});
  }
  RunResult cli(const std::vector<std::string>& args) const { return m_store.cli(args); }
  const TestStore& store() const { return m_store; }
  fs::path dir(const std::string& name) const { return m_store.dir() / name; }

  // The stored bars of `symbol`, raw, every date.
  std::vector<CsvBar> raw_bars(const std::string& symbol) const {
    const auto run = cli({"bars", symbol, "1990-01-01", "2030-12-31", "--raw", "--format", "csv"});
    REQUIRE(run.status == 0);
    return read_csv_text(run.out);
  }

private:
  TestStore m_store;
};

// Check `dir` (an export of `symbols` over [from, to]) against `ashare bars --raw`.
void check_export(const ExportWorld& world,
                  const fs::path& dir,
                  const std::vector<std::string>& symbols,
                  const std::string& from,
                  const std::string& to) {
  const auto qlib = read_qlib(dir);
  std::map<std::string, std::vector<CsvBar>> bars;
  std::set<std::string> days;
  for (const auto& symbol : symbols) {
    const auto all = world.raw_bars(symbol);
    REQUIRE_FALSE(all.empty());
    bars[symbol] = in_range(all, from, to);
    for (const auto& bar : bars[symbol]) {
      days.insert(bar.date);
    }
  }
  // The calendar: the union of the exported symbols' dates, ascending.
  CHECK(qlib.calendar == std::vector<std::string>(days.begin(), days.end()));
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < qlib.calendar.size(); ++i) {
    index[qlib.calendar[i]] = i;
  }
  // The instruments: qlib's codes, each symbol's first and last exported date.
  REQUIRE(qlib.instruments.size() == symbols.size());
  std::vector<std::string> codes;
  for (const auto& line : qlib.instruments) {
    REQUIRE(line.size() == 3);
    codes.push_back(line[0]);
  }
  CHECK(std::is_sorted(codes.begin(), codes.end()));
  CHECK(qlib.features.size() == symbols.size());
  for (const auto& symbol : symbols) {
    CAPTURE(symbol);
    const auto& mine = bars[symbol];
    const auto line = std::find_if(qlib.instruments.begin(), qlib.instruments.end(),
                                   [&](const auto& cells) { return cells[0] == code_of(symbol); });
    REQUIRE(line != qlib.instruments.end());
    CHECK((*line)[1] == mine.front().date);
    CHECK((*line)[2] == mine.back().date);
    // 后复权 from the first stored bar, whatever --from says.
    const double first_factor = *world.raw_bars(symbol).front().factor;
    const auto first = index.at(mine.front().date);
    const auto last = index.at(mine.back().date);
    REQUIRE(qlib.features.count(lower(code_of(symbol))) == 1);
    const auto& fields = qlib.features.at(lower(code_of(symbol)));
    CHECK(fields.size() == 8);
    std::map<std::string, const CsvBar*> by_date;
    for (const auto& bar : mine) {
      by_date[bar.date] = &bar;
    }
    for (const auto& [field, values] : fields) {
      CAPTURE(field);
      REQUIRE(values.size() == last - first + 2);
      CHECK(values[0] == static_cast<float>(first)); // the start index, as a float
      for (std::size_t i = first; i <= last; ++i) {
        const float got = values[i - first + 1];
        const auto found = by_date.find(qlib.calendar[i]);
        CAPTURE(qlib.calendar[i]);
        if (found == by_date.end()) {
          CHECK(std::isnan(got)); // suspended: no bar that day
          continue;
        }
        const CsvBar& bar = *found->second;
        const double adjustment = *bar.factor / first_factor;
        const std::map<std::string, double> want{
          {"open", bar.open * adjustment},     {"high", bar.high * adjustment},
          {"low", bar.low * adjustment},       {"close", bar.close * adjustment},
          {"volume", static_cast<double>(bar.volume) / adjustment},
          {"amount", bar.turnover},            {"change", *bar.change_pct / 100},
          {"factor", adjustment}};
        REQUIRE(want.count(field) == 1);
        check_float(got, want.at(field));
        // qlib's rule: the raw price is the adjusted one divided by the factor.
        if (field == "close") {
          check_float(got / fields.at("factor")[i - first + 1], bar.close, 3); // two roundings
        }
      }
    }
  }
}

const std::vector<std::string> k_export_symbols{"000001.SZ", "600519.SH", "609010.SH", "900011.SZ"};

} // namespace

TEST_CASE("export: qlib's layout read back value by value, suspended days NaN, factor steps") {
  ExportWorld world;
  const auto run = world.cli({"export", "--format", "qlib", world.dir("qlib").string()});
  INFO(describe(run));
  REQUIRE(run.status == 0);
  CHECK(run.out.find("exported 4 symbols") == 0);
  CHECK(run.err.empty()); // no progress bar off a terminal, nothing to note
  check_export(world, world.dir("qlib"), k_export_symbols, "1990-01-01", "2030-12-31");

  SUBCASE("symbols and a window") {
    const auto window = world.cli({"export", "--format", "QLIB", world.dir("window").string(),
                                   "609010.SH,600519.SH", "--from", "2024-01-03", "--to",
                                   "2024-01-10"});
    INFO(describe(window));
    REQUIRE(window.status == 0);
    check_export(world, world.dir("window"), {"600519.SH", "609010.SH"}, "2024-01-03",
                 "2024-01-10");
  }
}

TEST_CASE("export: a later --to appends, byte for byte a fresh export") {
  ExportWorld world;
  const auto dir = world.dir("appended").string();
  REQUIRE(world.cli({"export", "--format", "qlib", dir, "--to", "2024-01-05"}).status == 0);
  REQUIRE(world.cli({"export", "--format", "qlib", dir, "--to", "2024-01-09"}).status == 0);
  const auto last = world.cli({"export", "--format", "qlib", dir});
  INFO(describe(last));
  REQUIRE(last.status == 0);
  // 900011.SZ's last bar lies before 2024-06 too, but after 2024-01-09: all four grow.
  CHECK(last.out.find("0 written, 4 appended, 0 rewritten, 0 removed") != std::string::npos);
  CHECK(last.err.empty());
  REQUIRE(world.cli({"export", "--format", "qlib", world.dir("fresh").string()}).status == 0);
  const auto appended = all_files(dir);
  CHECK(appended.size() == 1 + 2 + 4 * 8); // state, calendar, instruments, 4 x 8 fields
  CHECK(appended == all_files(world.dir("fresh")));
  check_export(world, dir, k_export_symbols, "1990-01-01", "2030-12-31");

  SUBCASE("unchanged: nothing written, the same bytes") {
    const auto again = world.cli({"export", "--format", "qlib", dir});
    CHECK(again.out.find("0 written, 0 appended, 0 rewritten, 0 removed") != std::string::npos);
    CHECK(all_files(dir) == appended);
  }
}

TEST_CASE("export: a changed history is rewritten and said so; still a fresh export's bytes") {
  ExportWorld world;
  const auto dir = world.dir("qlib").string();
  REQUIRE(world.cli({"export", "--format", "qlib", dir}).status == 0);
  const auto fresh_equal = [&](const std::string& name, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"export", "--format", "qlib", world.dir(name).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    REQUIRE(world.cli(args).status == 0);
    CHECK(all_files(dir) == all_files(world.dir(name)));
  };

  SUBCASE("a re-imported bar") {
    const auto fix = world.dir("fix.csv");
    std::ofstream(fix) << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
                          "609010.SH,2024-01-03,10.2,10.3,10.0,10.15,100000,1010000,-0.49,1\n";
    world.store().import({fix});
    const auto run = world.cli({"export", "--format", "qlib", dir});
    INFO(describe(run));
    CHECK(run.out.find("0 written, 0 appended, 1 rewritten, 0 removed") != std::string::npos);
    CHECK(run.err.find("609010.SH: rewritten, its stored history changed") != std::string::npos);
    fresh_equal("fresh", {});
  }
  SUBCASE("a removed symbol, then a narrower window") {
    REQUIRE(world.cli({"remove", "900011.SZ"}).status == 0);
    const auto run = world.cli({"export", "--format", "qlib", dir});
    INFO(describe(run));
    CHECK(run.out.find("0 rewritten, 1 removed") != std::string::npos);
    CHECK(run.err.find("900011.SZ: removed from the export") != std::string::npos);
    CHECK_FALSE(fs::exists(world.dir("qlib") / "features" / "sz900011"));
    fresh_equal("fresh", {});
    const auto narrower = world.cli({"export", "--format", "qlib", dir, "--from", "2024-01-01"});
    CHECK(narrower.err.find("wrote every file: --from differs") != std::string::npos);
    fresh_equal("fresh-from", {"--from", "2024-01-01"});
  }
  SUBCASE("a cut-short export is written again whole") {
    const auto state = world.dir("qlib") / ".ashare-export.json";
    auto text = read_file(state);
    const auto at = text.find("\"complete\": true");
    REQUIRE(at != std::string::npos);
    text.replace(at, 16, "\"complete\": false");
    std::ofstream(state, std::ios::trunc) << text;
    const auto run = world.cli({"export", "--format", "qlib", dir});
    CHECK(run.err.find("wrote every file: the earlier export did not finish") != std::string::npos);
    fresh_equal("fresh", {});
  }
}

TEST_CASE("export: refusals") {
  ExportWorld world;
  const auto unknown = world.cli({"export", "--format", "qlib", world.dir("a").string(), "999999.SH"});
  CHECK(unknown.status == 1);
  CHECK(unknown.err == "ashare: error: INVALID_SYMBOL: unknown symbol \"999999.SH\"\n");
  CHECK_FALSE(fs::exists(world.dir("a")));
  // A directory of other files (someone's own qlib data) is never written into.
  fs::create_directories(world.dir("theirs") / "calendars");
  std::ofstream(world.dir("theirs") / "calendars" / "day.txt") << "2020-09-25\n";
  const auto theirs = world.cli({"export", "--format", "qlib", world.dir("theirs").string()});
  CHECK(theirs.status == 1);
  CHECK(theirs.err.find("holds files that ashare export did not write") != std::string::npos);
  CHECK(read_file(world.dir("theirs") / "calendars" / "day.txt") == "2020-09-25\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"export", "--format", "csv", world.dir("b").string()},
        std::vector<std::string>{"export", world.dir("b").string()},
        std::vector<std::string>{"export", "--format", "qlib", world.dir("b").string(), "--from",
                                 "2024-02-01", "--to", "2024-01-01"},
        std::vector<std::string>{"export", "--format", "qlib", world.dir("b").string(), "--to",
                                 "2024-13-01"},
        std::vector<std::string>{"export", "--format", "qlib", world.dir("b").string(), "60051.SH"}}) {
    CAPTURE(args);
    const auto run = world.cli(args);
    CHECK(run.status == 2);
    CHECK(run.err.rfind("ashare: error: ", 0) == 0);
  }
}

TEST_CASE("export: day.txt is the store's calendar, a stray bar on a closed day skipped (D19)") {
  TestStore store;
  const auto file = store.dir() / "stray.csv";
  // 2024-02-12 is a Spring Festival holiday: the row is valid for import (D16) but the day is
  // closed, so it is not a qlib calendar day and its bar has no place in the bins.
  std::ofstream(file) << "symbol,trade_date,open,high,low,close,volume,turnover,change_pct,factor\n"
                         "609012.SH,2024-02-07,10,10,10,10,100,1000,0,1\n"
                         "609012.SH,2024-02-12,11,11,11,11,100,1100,10,1\n"
                         "609012.SH,2024-02-20,12,12,12,12,100,1200,9.0909,1\n";
  store.import({file});
  const auto dir = store.dir() / "qlib";
  const auto run = store.cli({"export", "--format", "qlib", dir.string()});
  INFO(describe(run));
  REQUIRE(run.status == 0);
  const auto qlib = read_qlib(dir);
  // Every open day from the first to the last exported bar, 2024-02-19 too, which has no bar.
  CHECK(qlib.calendar
        == std::vector<std::string>{"2024-02-07", "2024-02-08", "2024-02-19", "2024-02-20"});
  const auto& close = qlib.features.at("sh609012").at("close");
  REQUIRE(close.size() == 5); // the start index, then one value per calendar day
  CHECK(close[0] == 0);
  CHECK(close[1] == 10);
  CHECK(std::isnan(close[2]));
  CHECK(std::isnan(close[3]));
  CHECK(close[4] == 12);
}
